import type { AuthOptions } from '../../interfaces';
import { DPOP_ALGORITHMS } from '../dpop';

/**
 * oidc-provider's DPoP (RFC 9449 §5) in its configuration: with `auth.dpop`, a token request that carries a proof
 * gets an access token bound to its key (`cnf.jkt`, `token_type: DPoP`), and so do the refresh tokens of public
 * clients; proofs are signed with the algorithms the resource server accepts, published as
 * `dpop_signing_alg_values_supported`; with `dpop.required`, every client must send proofs (RFC 9449 §5.2
 * `dpop_bound_access_tokens`). Without `auth.dpop`, proofs are ignored and tokens are bearer tokens, which is all
 * the resource server then accepts.
 */
export function withDpop(configuration: Record<string, unknown>, dpop: AuthOptions['dpop']): Record<string, unknown> {
  const features = configuration.features as Record<string, unknown>;
  if (dpop === undefined || dpop === false) return { ...configuration, features: { ...features, dPoP: { enabled: false } } };
  const options = dpop === true ? {} : dpop;
  return {
    ...configuration,
    features: { ...features, dPoP: { enabled: true } },
    enabledJWA: { dPoPSigningAlgValues: [...(options.algorithms ?? DPOP_ALGORITHMS)] },
    clientDefaults: { ...(configuration.clientDefaults as Record<string, unknown>), ...(options.required ? { dpop_bound_access_tokens: true } : {}) },
  };
}
