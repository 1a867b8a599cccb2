import { loadDependency } from '../runtime/peer';
import { AuthUnavailableError, InvalidTokenError } from '../errors';
import type { McpAuth, TokenVerifier } from '../interfaces';
import { authFromClaims } from '../context';
import { discoverMetadata } from './discovery';
import { checkAccessTokenClaims, checkHeaderType } from './token-type';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
type KeyGetter = ReturnType<Jose['createRemoteJWKSet']>;

/** Asymmetric signatures only: `none` and HMAC (a public key used as a shared secret) are never accepted. */
export const DEFAULT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;

/** The least time between two fetches of an issuer's keys. */
const COOLDOWN_MS = 1_000;

export interface JwtVerifierOptions {
  readonly issuers: readonly string[];
  readonly audiences: readonly string[];
  readonly jwksUri?: string;
  readonly algorithms: readonly string[];
  readonly clockToleranceSec: number;
  /** Only tokens whose header says `typ: at+jwt` (RFC 9068) are access tokens. */
  readonly requireAccessTokenType?: boolean;
  /** DPoP-bound tokens (`cnf.jkt`) are accepted: their proof is checked per request. */
  readonly dpop?: boolean;
}

/**
 * Verifies JWT access tokens with `jose`: the signature against the issuer's published keys (fetched once,
 * refetched when a token names a key not seen yet, at most once a second), the algorithm against the allow-list,
 * `iss`, `aud`, `exp` (required) and `nbf` with the allowed clock skew; then that it is an access token, not
 * another token of the same issuer (./token-type.ts).
 */
export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  // Loaded on first use: servers without auth never load it. jose is ESM-only; Node ≥ 20.19 requires it.
  const jose = loadDependency<Jose>('jose', { feature: 'verifying access tokens (auth)' }, () => require('jose'));
  const keys = new Map<string, Promise<KeyGetter>>();
  const keysOf = (issuer: string): Promise<KeyGetter> => {
    let found = keys.get(issuer);
    if (!found) {
      found = (options.jwksUri ? Promise.resolve(options.jwksUri) : discoverMetadata(issuer).then((m) => jwksUriOf(m, issuer))).then((uri) =>
        // A token naming a key not seen yet (a rotation) refetches the keys, at most once a second: new keys are
        // accepted within a second of their first use, and tokens with made-up key ids cost one fetch a second.
        jose.createRemoteJWKSet(new URL(uri), { timeoutDuration: 5_000, cooldownDuration: COOLDOWN_MS, cacheMaxAge: 10 * 60_000 }),
      );
      keys.set(issuer, found);
      // A failed discovery is tried again, though not at once for every request: after 10 s.
      found.catch(() => setTimeout(() => keys.delete(issuer), 10_000).unref());
    }
    return found;
  };
  const algorithms = [...options.algorithms];
  const required = options.requireAccessTokenType === true;
  /** The identity of a verified JWT, once it is known to be an access token (checked only once it is authentic). */
  const accessToken = (token: string, { payload, protectedHeader }: { payload: Record<string, unknown>; protectedHeader: { typ?: unknown } }): McpAuth => {
    const typed = checkHeaderType(protectedHeader.typ, required);
    checkAccessTokenClaims(payload, { typed, selfContained: true, dpop: options.dpop === true });
    return authFromClaims(token, payload);
  };

  return async (token: string): Promise<McpAuth> => {
    let header: { alg?: string };
    let issuer: unknown;
    try {
      header = jose.decodeProtectedHeader(token);
      issuer = jose.decodeJwt(token).iss;
    } catch {
      throw new InvalidTokenError('The access token is malformed: expected a signed JWT.');
    }
    if (typeof header.alg !== 'string' || !algorithms.includes(header.alg)) {
      throw new InvalidTokenError('The access token is signed with an algorithm this server does not accept.');
    }
    if (typeof issuer !== 'string' || !options.issuers.includes(issuer)) {
      throw new InvalidTokenError('The access token was issued by an authorization server this server does not trust.');
    }
    const getter = await keysOf(issuer);
    const verify = () =>
      jose.jwtVerify(token, getter, { issuer, audience: [...options.audiences], algorithms, clockTolerance: options.clockToleranceSec, requiredClaims: ['exp'] });
    let verified: Awaited<ReturnType<typeof verify>>;
    try {
      verified = await verify();
    } catch (error) {
      // A key first seen within a second of the last fetch (a rotation): wait the second out, then look again.
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || !getter.coolingDown) throw tokenRejection(error);
      await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS));
      try {
        verified = await verify();
      } catch (again) {
        throw tokenRejection(again);
      }
    }
    return accessToken(token, verified);
  };
}

function jwksUriOf(metadata: Record<string, unknown>, issuer: string): string {
  if (typeof metadata.jwks_uri !== 'string') throw new AuthUnavailableError(`the metadata of ${issuer} has no jwks_uri`);
  return metadata.jwks_uri;
}

/** What a client is told about a token jose refused (the reason, in its terms); key-fetch failures are ours. */
export function tokenRejection(error: unknown): Error {
  const { code, claim } = (error ?? {}) as { code?: string; claim?: string };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return new InvalidTokenError('The access token has expired.');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'aud') return new InvalidTokenError('The access token was not issued for this server (audience).');
      if (claim === 'nbf') return new InvalidTokenError('The access token is not valid yet.');
      if (claim === 'exp') return new InvalidTokenError('The access token has no expiry.');
      if (claim === 'iss') return new InvalidTokenError('The access token was issued by an authorization server this server does not trust.');
      return new InvalidTokenError(`The access token's ${claim ?? 'claims'} claim is invalid.`);
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return new InvalidTokenError("The access token's signature is invalid.");
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return new InvalidTokenError('The access token is signed with a key this server does not know.');
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return new InvalidTokenError('The access token is signed with an algorithm this server does not accept.');
    case 'ERR_JWKS_TIMEOUT':
    case 'ERR_JWKS_INVALID':
      return new AuthUnavailableError("the authorization server's keys could not be fetched", error);
    default:
      if (error instanceof AuthUnavailableError || isNetworkFailure(error)) return new AuthUnavailableError("the authorization server's keys could not be fetched", error);
      return new InvalidTokenError('The access token is invalid.');
  }
}

function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && /fetch/i.test(error.message);
}
