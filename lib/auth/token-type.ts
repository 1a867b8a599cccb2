import { InvalidTokenError } from '../errors';

/**
 * What kind of token a verified token is, so that only access tokens are accepted: an ID token, a logout
 * token or a refresh token signed by the same authorization server verifies just as well (same keys, same
 * issuer, and an `aud` that may be listed in `audience`). RFC 9068 §4 asks resource servers to check `typ`;
 * most providers do not set `at+jwt`, so untyped tokens are told apart by what only other token types carry.
 * The rule per provider is in docs/auth.md ("Which tokens are access tokens").
 */

/** RFC 9068 §2.1: the `typ` of a JWT access token. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

/** `typ` values that say "a JWT" and nothing more (RFC 7519 §5.1, RFC 7515 §4.1.9): untyped, for our purpose. */
const GENERIC_TYPES = new Set(['jwt', 'jose']);

/** Registered `typ` values of other JWTs, by what they are. */
const OTHER_TYPES: Readonly<Record<string, string>> = {
  'logout+jwt': 'a logout token',
  'secevent+jwt': 'a security event token',
  'dpop+jwt': 'a DPoP proof',
  'token-introspection+jwt': 'an introspection response',
  'oauth-authz-req+jwt': 'an authorization request',
  'client-authentication+jwt': 'a client assertion',
  'oauth-client-attestation+jwt': 'a client attestation',
  'oauth-client-attestation-pop+jwt': 'a client attestation proof',
  'entity-statement+jwt': 'an OpenID Federation statement',
  'kb+jwt': 'a key binding JWT',
  'vc+sd-jwt': 'a verifiable credential',
  'dc+sd-jwt': 'a verifiable credential',
};

/** Claims only an OpenID Connect ID token carries (OIDC Core §2, §3.3.2.11; FAPI 1.0 §5.1 for `s_hash`), as said. */
const ID_TOKEN_CLAIMS: ReadonlyArray<readonly [string, string]> = [
  ['nonce', 'a nonce claim'],
  ['at_hash', 'an at_hash claim'],
  ['c_hash', 'a c_hash claim'],
  ['s_hash', 'an s_hash claim'],
];

/** Keycloak's `typ` claim, by what it says (org.keycloak.util.TokenUtil). */
const KEYCLOAK_TYPES: Readonly<Record<string, string | null>> = {
  bearer: null,
  dpop: null,
  'at+jwt': null,
  id: 'an ID token',
  'serialized-id': 'an ID token',
  refresh: 'a refresh token',
  offline: 'a refresh token',
  logout: 'a logout token',
};

/** The Microsoft identity platform's issuer hosts (Entra ID, its national clouds, External ID, Azure AD B2C). */
const MICROSOFT_HOSTS = /^(login\.microsoftonline\.(com|us)|login\.partner\.microsoftonline\.cn|login\.chinacloudapi\.cn|login\.windows\.net|sts\.windows\.net|sts\.chinacloudapi\.cn|[a-z0-9-]+\.(b2clogin|ciamlogin)\.com)$/i;

/** RFC 7515 §4.1.9: a media type, compared case-insensitively, with or without its `application/` prefix. */
export function mediaType(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

/** A value from a token, shown in a refusal only when it is short and plain (it ends up in a header). */
function shown(value: string): string {
  return /^[A-Za-z0-9.+_/:-]{1,60}$/.test(value) ? value : '(unprintable)';
}

function refuse(what: string, why: string): never {
  throw new InvalidTokenError(`The token is ${what}, not an access token: ${why}.`);
}

/**
 * The JWT header's `typ`: `at+jwt` is an access token (true); no `typ`, `JWT` or `JOSE` says nothing (false);
 * any other type is refused. With `required`, only `at+jwt` passes.
 */
export function checkHeaderType(typ: unknown, required: boolean): boolean {
  if (typ !== undefined && typeof typ !== 'string') throw new InvalidTokenError('The token is not an access token: its typ header is not a string.');
  const type = typ === undefined ? undefined : mediaType(typ);
  if (type === ACCESS_TOKEN_TYPE) return true;
  if (required) {
    throw new InvalidTokenError(`The token is not typed as an access token (typ ${typ === undefined ? 'missing' : shown(typ)}): this server requires typ at+jwt (RFC 9068).`);
  }
  if (type === undefined || GENERIC_TYPES.has(type)) return false;
  const other = OTHER_TYPES[type];
  if (other) refuse(other, `its typ header is ${shown(typ!)}`);
  throw new InvalidTokenError(`The token is not an access token: its typ header is ${shown(typ!)}, not at+jwt or JWT.`);
}

export interface ClaimsCheckOptions {
  /** The header said `at+jwt`: the issuer typed it as an access token, so its claims are not second-guessed. */
  readonly typed?: boolean;
  /**
   * The claims are a whole JWT as its issuer signed it, so what is missing from them counts too. Not so for an
   * introspection answer (RFC 7662 members are optional) or a custom verifier's claims.
   */
  readonly selfContained?: boolean;
  /** DPoP-bound tokens are accepted (`auth.dpop`): their proof is checked per request (./dpop.ts), not here. */
  readonly dpop?: boolean;
}

/**
 * Refuses claims that are not an access token's: a sender-constrained token sent as a bearer token, a
 * security event token, a Keycloak or Cognito token that says it is another type, an ID token (`nonce`,
 * `at_hash`, `c_hash`, `s_hash`), and, for self-contained JWTs, an ID token of the Microsoft identity platform
 * (no `azp`/`appid`) or a token that names neither a client nor a scope.
 */
export function checkAccessTokenClaims(claims: Readonly<Record<string, unknown>>, options: ClaimsCheckOptions = {}): void {
  checkBinding(claims.cnf, options.dpop === true);
  if (options.typed) return;
  const events = claims.events;
  if (events !== null && typeof events === 'object' && !Array.isArray(events) && Object.keys(events).length > 0) {
    refuse('a security event token', 'it carries an events claim');
  }
  if (vouched(claims)) return;
  for (const [claim, said] of ID_TOKEN_CLAIMS) if (claims[claim] !== undefined) refuse('an ID token', `it carries ${said}`);
  if (!options.selfContained) return;
  const text = (key: string) => typeof claims[key] === 'string' && claims[key] !== '';
  const client = text('client_id') || text('azp') || text('appid') || text('cid');
  // Microsoft's access tokens name their client (azp in v2.0, appid in v1.0); its ID tokens never do, and
  // their `aud` is the app's client id, which is what `audience` lists for an Entra ID API.
  if (isMicrosoft(claims) && !text('azp') && !text('appid')) refuse('an ID token', 'it is a Microsoft identity platform token without azp or appid');
  const scoped = claims.scope !== undefined || claims.scp !== undefined;
  if (!client && !scoped) throw new InvalidTokenError('The token is not an access token: it names no client (client_id) and grants no scope.');
}

/**
 * RFC 9449 §7 / RFC 8705 §3: a token bound to a DPoP key or a client certificate is only valid with proof of
 * that key, which a bearer request does not carry.
 */
function checkBinding(cnf: unknown, dpop: boolean): void {
  if (cnf === null || typeof cnf !== 'object') return;
  const bound = cnf as Record<string, unknown>;
  if (bound.jkt !== undefined && !dpop) throw new InvalidTokenError('The access token is bound to a DPoP key (cnf.jkt): this server accepts bearer tokens only.');
  if (bound['x5t#S256'] !== undefined) {
    throw new InvalidTokenError('The access token is bound to a client certificate (cnf x5t#S256): this server accepts bearer tokens only.');
  }
}

/** Keycloak's `typ` claim and Cognito's `token_use` say what a token is: true for an access token. */
function vouched(claims: Readonly<Record<string, unknown>>): boolean {
  if (typeof claims.typ === 'string') {
    const type = mediaType(claims.typ);
    const other = KEYCLOAK_TYPES[type];
    if (other === null) return true;
    if (other !== undefined) refuse(other, `its typ claim is ${shown(claims.typ)}`);
  }
  if (claims.token_use === 'access') return true;
  if (claims.token_use === 'id') refuse('an ID token', 'its token_use claim is id');
  return false;
}

function isMicrosoft(claims: Readonly<Record<string, unknown>>): boolean {
  if (typeof claims.iss === 'string') {
    try {
      if (MICROSOFT_HOSTS.test(new URL(claims.iss).hostname)) return true;
    } catch {
      // Not a URL: not one of Microsoft's issuers.
    }
  }
  // Tokens from a custom domain: the platform's `ver` with a tenant (`tid`) or a B2C policy (`tfp`).
  return (claims.ver === '1.0' || claims.ver === '2.0') && (typeof claims.tid === 'string' || typeof claims.tfp === 'string');
}

/** RFC 7662 §2.2 `token_type` of an introspection answer: a bearer access token (or, with `dpop`, a DPoP one), or refused. */
export function checkIntrospectedType(tokenType: unknown, dpop = false): void {
  if (tokenType === undefined) return;
  const type = typeof tokenType === 'string' ? tokenType.toLowerCase() : '';
  const kind = type.replace(/^urn:ietf:params:oauth:token-type:/, '');
  if (kind === 'bearer' || kind === 'access_token') return;
  // RFC 9449 §6.2: a DPoP-bound token; its proof is checked per request (./dpop.ts).
  if (kind === 'dpop' && dpop) return;
  if (kind === 'dpop') throw new InvalidTokenError('The access token is bound to a DPoP key (token_type DPoP): this server accepts bearer tokens only.');
  const what = kind === 'refresh_token' || kind === 'refresh' ? 'a refresh token' : kind === 'id_token' ? 'an ID token' : undefined;
  const shownType = typeof tokenType === 'string' ? shown(tokenType) : '(not a string)';
  if (what) refuse(what, `its token_type is ${shownType}`);
  throw new InvalidTokenError(`The token is not a bearer access token: its token_type is ${shownType}.`);
}
