import type { McpAuth } from './auth';

/**
 * An identity given in part (by a test, or by a host's own sign-in), completed as an McpAuth: no scopes, an
 * empty token, `claims` of `{ sub }` unless given, and `clientId` unless given.
 */
export function completeAuth(given: Partial<McpAuth>, clientId: string): McpAuth {
  const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<McpAuth>;
  return {
    clientId,
    scopes: [],
    token: '',
    ...defined,
    claims: given.claims ?? (given.subject !== undefined ? { sub: given.subject } : {}),
  };
}

/** An OAuth scope-token: printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3). */
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The scopes of a token's claims: `scope` (space-separated, RFC 9068) or `scp` (a list or a string). */
export function scopesOf(claims: Readonly<Record<string, unknown>>): string[] {
  const scope = claims.scope ?? claims.scp;
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean);
  if (Array.isArray(scope)) return scope.filter((s): s is string => typeof s === 'string');
  return [];
}

/** The audiences of a token's claims (`aud`: a string or a list). */
export function audiencesOf(claims: Readonly<Record<string, unknown>>): string[] {
  const aud = claims.aud;
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud)) return aud.filter((a): a is string => typeof a === 'string');
  return [];
}

/** The identity a verified token speaks for (RFC 9068 access-token claims; `azp` and `cid` as providers use them). */
export function authFromClaims(token: string, claims: Readonly<Record<string, unknown>>): McpAuth {
  const text = (key: string) => (typeof claims[key] === 'string' ? (claims[key] as string) : undefined);
  // client_id (RFC 9068), azp (OIDC), appid (Entra ID v1), cid (Okta).
  const clientId = text('client_id') ?? text('azp') ?? text('appid') ?? text('cid') ?? text('sub') ?? '';
  return {
    ...(text('sub') !== undefined ? { subject: text('sub') } : {}),
    clientId,
    scopes: scopesOf(claims),
    ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
    ...(text('iss') !== undefined ? { issuer: text('iss') } : {}),
    claims,
    token,
  };
}

/** The scopes of `needed` that `auth` does not grant (all of them without auth). */
export function missingScopes(auth: Pick<McpAuth, 'scopes'> | undefined, needed: readonly string[]): string[] {
  if (!auth) return [...needed];
  return needed.filter((scope) => !auth.scopes.includes(scope));
}

/**
 * Whose a session is: the issuer and subject of the token that opened it (the client id for a token without
 * a subject). Two tokens of the same user (a refreshed one, one with more scopes) own the same sessions.
 */
export function ownerOf(auth: McpAuth | undefined): string | undefined {
  if (!auth) return undefined;
  // Subjects and client ids are kept apart: a subject that spells `client:x` is not the client x.
  // A machine client's token has its client id as subject: it owns what the client owns, never a user's sessions.
  return JSON.stringify(auth.subject !== undefined && auth.machine !== true ? [auth.issuer ?? '', 'sub', auth.subject] : [auth.issuer ?? '', 'client', auth.clientId]);
}

/** True when two resource identifiers name the same resource (a fragment and one trailing slash ignored). */
export function sameResource(a: string, b: string): boolean {
  const norm = (u: string) => u.replace(/#.*$/, '').replace(/\/$/, '');
  return norm(a) === norm(b);
}
