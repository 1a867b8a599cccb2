import { AuthUnavailableError, InvalidTokenError } from '../errors';
import type { IntrospectionOptions, McpAuth, TokenVerifier } from '../interfaces';
import { authFromClaims } from '../context';
import { checkIntrospectedType } from './token-type';

/**
 * Verifies opaque tokens by asking the authorization server (RFC 7662 token introspection): an inactive token
 * is refused, and so is one whose `token_type` is not a bearer access token (an endpoint may ignore the hint and
 * answer for a refresh token); the answer's claims (`scope`, `client_id`, `sub`, `exp`, `aud`, `iss`) become
 * the identity.
 */
export function createIntrospectionVerifier(options: IntrospectionOptions, dpop = false): TokenVerifier {
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString('base64')}`;
  return async (token: string): Promise<McpAuth> => {
    let response: Response;
    try {
      response = await fetch(options.endpoint, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
    } catch (error) {
      throw new AuthUnavailableError('the introspection endpoint could not be reached', error);
    }
    if (!response.ok) throw new AuthUnavailableError(`the introspection endpoint answered ${response.status}`);
    const claims = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!claims || typeof claims !== 'object') throw new AuthUnavailableError('the introspection endpoint answered something other than JSON');
    if (claims.active !== true) throw new InvalidTokenError('The access token is not active (unknown, revoked or expired).');
    checkIntrospectedType(claims.token_type, dpop);
    return authFromClaims(token, claims);
  };
}
