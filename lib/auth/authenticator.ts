import { LRUCache } from 'lru-cache';
import { BootstrapError, BootstrapErrorCode, InvalidTokenError } from '../errors';
import type { AuthOptions, McpAuth, TokenVerifier } from '../interfaces';
import { audiencesOf, sameResource, SCOPE_TOKEN } from '../context';
import { createIntrospectionVerifier } from './introspection';
import { createJwtVerifier, DEFAULT_ALGORITHMS } from './jwt-verifier';
import { ACCESS_TOKEN_TYPE, checkAccessTokenClaims, mediaType } from './token-type';

/** The longest `Authorization` header read; a longer one is refused before anything is parsed. */
export const MAX_AUTHORIZATION_LENGTH = 8_192;
/** A verified token is verified again after this long, even when it is still valid (a key may have been withdrawn). */
const REVERIFY_AFTER_MS = 5 * 60_000;
const CACHE_BYTES = 16 * 1024 * 1024;
/** Most verifications shared at once (beyond that, the oldest running one is no longer shared: it still answers those waiting on it). */
const MAX_PENDING = 1_000;
/** RFC 6750 §2.1: `Bearer` then a token68; RFC 9449 §7.1: `DPoP` then the same. */
const CREDENTIALS = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** An access token as a request presents it: as a bearer token, or bound to a DPoP proof. */
export interface Presented {
  readonly scheme: 'bearer' | 'dpop';
  readonly token: string;
}

/** The identity of a request, or why there is none: no credentials at all, or credentials that fail. */
export class MissingTokenError extends InvalidTokenError {
  constructor() {
    super('An access token is required: send it as Authorization: Bearer <token>.');
  }
}

interface Cached {
  readonly auth: McpAuth;
  readonly bytes: number;
}

/**
 * Turns an `Authorization` header into the verified identity of the request, once per token: verification
 * results are kept (bounded in entries and bytes) until the token expires, or five minutes at most.
 */
export class Authenticator {
  readonly resource: string;
  readonly issuers: readonly string[];
  readonly requiredScopes: readonly string[];
  private readonly verify: TokenVerifier;
  private readonly audiences: readonly string[];
  private readonly tolerance: number;
  /** Tokens checked by JWT verification already had iss/aud/exp checked there. */
  private readonly checked: boolean;
  /** Verified tokens, each until it expires (five minutes at most): bounded in entries and bytes. */
  private readonly cache: LRUCache<string, Cached>;
  /**
   * Verifications running, shared by the requests with the same token; apart from `cache`, so that a flood of
   * tokens being verified (or refused) never pushes a verified one out. A settled one leaves it (see authenticate):
   * its result, when it may be kept, is in `cache`.
   */
  private readonly pending = new LRUCache<string, McpAuth>({
    max: MAX_PENDING,
    ttl: 1,
    ignoreFetchAbort: true,
    fetchMethod: (token) => this.verified(token),
  });
  private readonly recheck?: (auth: McpAuth) => Promise<void>;
  /** DPoP-bound tokens are accepted (`auth.dpop`): the scheme `DPoP`, and tokens with `cnf.jkt`. */
  private readonly dpop: boolean;

  constructor(options: AuthOptions, resource: string) {
    this.issuers = typeof options.issuer === 'string' ? [options.issuer] : [...(options.issuer ?? [])];
    this.resource = resource;
    this.requiredScopes = [...(options.requiredScopes ?? [])];
    this.audiences = [resource, ...(typeof options.audience === 'string' ? [options.audience] : (options.audience ?? []))];
    this.tolerance = options.clockToleranceSec ?? 30;
    checkOptions(options, this.issuers, resource, this.requiredScopes);
    const algorithms = options.algorithms ?? DEFAULT_ALGORITHMS;
    this.dpop = options.dpop !== undefined && options.dpop !== false;
    if (options.verify) this.verify = options.verify;
    else if (options.introspection) this.verify = createIntrospectionVerifier(options.introspection, this.dpop);
    else
      this.verify = createJwtVerifier({
        issuers: this.issuers,
        // jose compares exactly: the resource with and without its trailing slash.
        audiences: this.audiences.flatMap((a) => (a.endsWith('/') ? [a, a.slice(0, -1)] : [a, `${a}/`])),
        jwksUri: options.jwksUri,
        algorithms,
        clockToleranceSec: this.tolerance,
        requireAccessTokenType: options.tokenType !== undefined,
        dpop: this.dpop,
      });
    this.checked = !options.verify && !options.introspection;
    this.cache = new LRUCache({ max: options.cacheSize ?? 10_000, maxSize: CACHE_BYTES, sizeCalculation: (entry) => entry.bytes });
    this.recheck = options.recheck;
  }

  /** The verified identity for this header; throws MissingTokenError, InvalidTokenError or AuthUnavailableError. */
  authenticate(authorization: string | null | undefined): Promise<McpAuth> {
    try {
      return this.verifyToken(this.presented(authorization).token);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The scheme and token of an `Authorization` header; throws MissingTokenError or InvalidTokenError. */
  presented(authorization: string | null | undefined): Presented {
    if (!authorization) throw new MissingTokenError();
    if (authorization.length > MAX_AUTHORIZATION_LENGTH) throw new InvalidTokenError(`The Authorization header is too large (over ${MAX_AUTHORIZATION_LENGTH} characters).`);
    const found = CREDENTIALS.exec(authorization);
    const scheme = found?.[1].toLowerCase();
    if (!found || (scheme === 'dpop' && !this.dpop)) throw new InvalidTokenError('The Authorization header must be: Bearer <token>.');
    return { scheme: scheme as Presented['scheme'], token: found[2] };
  }

  /** The verified identity of a token (cached); throws InvalidTokenError or AuthUnavailableError. */
  verifyToken(token: string): Promise<McpAuth> {
    // An expired entry is not found (the cache's TTL is the verification's lifetime).
    const cached = this.cache.get(token);
    if (cached) return this.recheck ? this.recheck(cached.auth).then(() => cached.auth) : Promise.resolve(cached.auth);
    // Requests with the same token share one verification; how many are shared is bounded (tokens ≤ 8 KiB each).
    // Settled, it leaves the shared set at once (its result, when it may be kept, is in `cache`): lru-cache reads the
    // clock at most once per millisecond, so a 1 ms TTL alone could serve it again to a call that follows it at once.
    const shared = this.pending.fetch(token) as Promise<McpAuth>;
    const settled = () => void this.pending.delete(token);
    shared.then(settled, settled);
    return shared;
  }

  private async verified(token: string): Promise<McpAuth> {
    const auth = await this.verify(token);
    // Checked before it is kept: a refused token is never cached as valid.
    if (!this.checked) this.checkClaims(auth);
    const now = Date.now();
    const expires = auth.expiresAt !== undefined ? (auth.expiresAt + this.tolerance) * 1000 : now;
    const ttl = Math.min(expires, now + REVERIFY_AFTER_MS) - now;
    if (ttl >= 1) this.cache.set(token, { auth, bytes: token.length * 2 + JSON.stringify(auth.claims).length * 2 + 256 }, { ttl: Math.floor(ttl) });
    return auth;
  }

  /** What JWT verification checks, for identities that came from introspection or a custom verifier. */
  private checkClaims(auth: McpAuth): void {
    const now = Date.now() / 1000;
    if (auth.expiresAt === undefined) throw new InvalidTokenError('The access token has no expiry.');
    if (auth.expiresAt + this.tolerance < now) throw new InvalidTokenError('The access token has expired.');
    const nbf = auth.claims.nbf;
    if (typeof nbf === 'number' && nbf - this.tolerance > now) throw new InvalidTokenError('The access token is not valid yet.');
    if (auth.issuer !== undefined && !this.issuers.includes(auth.issuer)) {
      throw new InvalidTokenError('The access token was issued by an authorization server this server does not trust.');
    }
    // RFC 8707: a token must be meant for this server; one without an audience could be meant for anything.
    const audiences = audiencesOf(auth.claims);
    if (!audiences.some((aud) => this.audiences.some((mine) => sameResource(aud, mine)))) {
      throw new InvalidTokenError('The access token was not issued for this server (audience).');
    }
    // An ID token or refresh token that a verifier or an introspection endpoint vouched for is still not an access token.
    checkAccessTokenClaims(auth.claims, { dpop: this.dpop });
  }
}

function checkOptions(options: AuthOptions, issuers: readonly string[], resource: string, scopes: readonly string[]): void {
  const fail = (cause: string, fix: string) => {
    throw new BootstrapError(BootstrapErrorCode.InvalidAuthOptions, `Cannot serve with these auth options: ${cause}\nFix: ${fix}`);
  };
  if (issuers.length === 0 || issuers.some((i) => !isUrl(i))) {
    fail(`issuer must be the authorization server's issuer URL (got ${JSON.stringify(options.issuer)}).`, "auth: { issuer: 'https://auth.example.com' }");
  }
  if (!isUrl(resource) || resource.includes('#')) {
    fail(`resource must be this server's absolute http(s) URL without a fragment (got ${JSON.stringify(resource)}).`, "auth: { resource: 'https://mcp.example.com/mcp' }");
  }
  if (options.verify && options.introspection) fail('verify and introspection are both given.', 'give one way of verifying tokens.');
  const tokenType = options.tokenType as unknown;
  if (tokenType !== undefined && (typeof tokenType !== 'string' || mediaType(tokenType) !== ACCESS_TOKEN_TYPE)) {
    fail(
      `tokenType must be '${ACCESS_TOKEN_TYPE}', the type RFC 9068 gives JWT access tokens (got ${JSON.stringify(tokenType)}).`,
      `auth: { tokenType: '${ACCESS_TOKEN_TYPE}' } for an authorization server that sets typ ${ACCESS_TOKEN_TYPE} on its access tokens, or leave tokenType out (then ID tokens and other types are refused by their claims).`,
    );
  }
  if (tokenType !== undefined && (options.verify || options.introspection)) {
    fail(
      `tokenType is given with ${options.verify ? 'verify' : 'introspection'}, which reads no JWT header.`,
      'leave tokenType out (an introspection answer is checked by its token_type, a verifier checks what it accepts), or verify JWTs with the issuer\'s keys.',
    );
  }
  const weak = (options.algorithms ?? []).filter((alg) => alg === 'none' || /^HS/i.test(alg));
  if (weak.length > 0) {
    fail(
      `algorithms ${weak.join(', ')} cannot be accepted: 'none' is unsigned, and HMAC with keys from a JWKS lets anyone sign with the public key.`,
      `accept asymmetric algorithms only (default: ${DEFAULT_ALGORITHMS.join(', ')}).`,
    );
  }
  const bad = [...scopes, ...(options.scopesSupported ?? [])].find((s) => !SCOPE_TOKEN.test(s));
  if (bad !== undefined) fail(`${JSON.stringify(bad)} is not a valid OAuth scope (RFC 6749 §3.3: printable ASCII, no space, quote or backslash).`, 'rename the scope.');
}

function isUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
