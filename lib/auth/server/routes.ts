/** Where oidc-provider's endpoints are, under the issuer's origin. */
export const OAUTH_PREFIX = '/oauth/';
export const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  registration: '/oauth/register',
  end_session: '/oauth/logout',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  pushed_authorization_request: '/oauth/par',
  device_authorization: '/oauth/device/auth',
  code_verification: '/oauth/device',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
};
export const WELL_KNOWN = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];

/**
 * A request that names no scope asks for every scope of the resource (`openid` when it has none): consent
 * is then always asked of a new client, and its token is never one without any scope (which oidc-provider
 * refuses as access_denied).
 */
export function withDefaultScope(target: string, issuer: string, scopes: readonly string[]): string {
  const url = new URL(target, issuer);
  if (url.searchParams.get('scope')) return target;
  url.searchParams.set('scope', scopes.length > 0 ? scopes.join(' ') : 'openid');
  return `${url.pathname}${url.search}`;
}
