import type { AuthOptions, McpAuth, TokenVerifier } from '../../interfaces';
import { createIntrospectionVerifier } from '../introspection';
import { createJwtVerifier, DEFAULT_ALGORITHMS } from '../jwt-verifier';

/**
 * Tokens of another authorization server accepted beside this one's (`auth.issuer` given with `auth.server`: a
 * company's IdP for its own clients, this server's sign-in for the rest): verified as `auth` says — JWTs with the
 * issuer's keys, introspection, or `verify` — when the token is not this server's. Undefined without `auth.issuer`.
 */
export function foreignTokens(auth: AuthOptions, resource: string): { readonly issuers: readonly string[]; readonly verify: TokenVerifier } | undefined {
  if (auth.issuer === undefined) return undefined;
  const issuers = typeof auth.issuer === 'string' ? [auth.issuer] : [...auth.issuer];
  const dpop = auth.dpop !== undefined && auth.dpop !== false;
  const audiences = [resource, ...(typeof auth.audience === 'string' ? [auth.audience] : (auth.audience ?? []))];
  const verify =
    auth.verify ??
    (auth.introspection
      ? createIntrospectionVerifier(auth.introspection, dpop)
      : createJwtVerifier({
          issuers,
          audiences: audiences.flatMap((a) => (a.endsWith('/') ? [a, a.slice(0, -1)] : [a, `${a}/`])),
          jwksUri: auth.jwksUri,
          algorithms: auth.algorithms ?? DEFAULT_ALGORITHMS,
          clockToleranceSec: auth.clockToleranceSec ?? 30,
          requireAccessTokenType: auth.tokenType !== undefined,
          dpop,
        }));
  return { issuers, verify };
}

/** Whether a token says it was issued by `issuer` (its `iss`, unverified: the verifier of that issuer then checks it). */
export function claimsIssuer(token: string, issuer: string): boolean {
  const payload = token.split('.')[1];
  if (payload === undefined) return false;
  try {
    return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown }).iss === issuer;
  } catch {
    return false;
  }
}

/** `auth` verified as this server's tokens, or another issuer's (`foreign`). */
export function sideBySide(ours: { readonly issuer: string; verify(token: string): Promise<McpAuth>; recheck(auth: McpAuth): Promise<void> }, foreign: ReturnType<typeof foreignTokens>): Pick<AuthOptions, 'issuer' | 'verify' | 'recheck'> {
  if (!foreign) return { issuer: ours.issuer, verify: (token) => ours.verify(token), recheck: (auth) => ours.recheck(auth) };
  return {
    issuer: [ours.issuer, ...foreign.issuers.filter((i) => i !== ours.issuer)],
    verify: (token) => (claimsIssuer(token, ours.issuer) ? ours.verify(token) : foreign.verify(token)),
    // Only this server's grants are revoked here; another issuer's tokens are checked by their own verifier.
    recheck: (auth) => (auth.issuer === ours.issuer ? ours.recheck(auth) : Promise.resolve()),
  };
}
