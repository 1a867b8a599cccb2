import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import * as jose from 'jose';
import { BootstrapErrorCode, McpFactory, type AuthOptions, type McpApplication, type McpAuth } from 'mcp-reflect';
import { NotesAuthModule } from '../../samples/notes-auth/notes-auth.module';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';
import { expectRefused, expectServed, startLocalIssuers, type LocalIssuers } from './local-issuer';

const now = () => Math.floor(Date.now() / 1000);
/** An Entra ID tenant and the client id of the API's app registration (what `audience` lists for Entra ID v2). */
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const ENTRA_APP = '6e74172b-be56-4843-9ff4-e66a39bb12e3';
const PATHS = ['/idp', `/${TENANT}/v2.0`, `/${TENANT}/`];

const ID_TOKEN = (why: string) => `The token is an ID token, not an access token: ${why}.`;
const NO_CLIENT = 'The token is not an access token: it names no client (client_id) and grants no scope.';

/**
 * Only access tokens are accepted: ID tokens, logout tokens, refresh tokens and other JWTs that the trusted
 * authorization server signed are refused (401 invalid_token, a reason, never a 500), with `audience` listing a
 * client id as docs/auth.md tells Entra ID users to. Real tokens of oidc-provider (this repository's test
 * authorization server, a child process) and tokens shaped as Entra ID, Okta, Keycloak, Auth0, Cognito and
 * Google issue them, signed on loopback, each through real HTTP to the MCP endpoint. Plus the `tokenType`
 * option's start-up checks.
 */
describe('HTTP authorization: only access tokens', () => {
  let as: AuthorizationServer;
  let local: LocalIssuers;
  let app: McpApplication;
  let typedApp: McpApplication;
  let url: string;
  let typedUrl: string;

  beforeAll(async () => {
    [as, local] = await Promise.all([startAuthorizationServer(), startLocalIssuers(PATHS)]);
    const issuer = [as.issuer, ...PATHS.map((p) => local.issuer(p))];
    const audience = [as.publicClient.clientId, ENTRA_APP, 'api://default'];
    app = await McpFactory.create(NotesAuthModule);
    await app.listen({ transport: 'http', port: 0, auth: { issuer, audience, scopesSupported: ['notes:read', 'notes:write'] } });
    url = await app.getUrl();
    typedApp = await McpFactory.create(NotesAuthModule);
    await typedApp.listen({ transport: 'http', port: 0, auth: { issuer, audience, tokenType: 'at+jwt' } });
    typedUrl = await typedApp.getUrl();
  });
  const apps: McpApplication[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await app?.close();
    await typedApp?.close();
    await as?.close();
    await local?.close();
  });

  /** A user signs in at oidc-provider (authorization code, PKCE) for this server: its access token and ID token. */
  const signIn = async (nonce?: string): Promise<{ access_token: string; id_token: string }> => {
    const { authorization_endpoint } = (await (await fetch(as.metadataUrl)).json()) as { authorization_endpoint: string };
    const verifier = randomBytes(32).toString('base64url');
    const request = new URL(authorization_endpoint);
    request.search = new URLSearchParams({
      response_type: 'code',
      client_id: as.publicClient.clientId,
      redirect_uri: as.publicClient.redirectUri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      scope: 'openid notes:read',
      resource: url,
      ...(nonce ? { nonce } : {}),
    }).toString();
    const code = (await as.authorize(request)).searchParams.get('code')!;
    const body = new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: as.publicClient.redirectUri, client_id: as.publicClient.clientId, resource: url });
    const response = await fetch(as.tokenEndpoint, { method: 'POST', body });
    expect(response.status).toBe(200);
    return (await response.json()) as { access_token: string; id_token: string };
  };

  /** An access token as a generic provider issues one for this server, untyped beyond `typ: JWT`. */
  const access = (overrides: Record<string, unknown> = {}) => {
    const all: Record<string, unknown> = { iss: local.issuer('/idp'), aud: url, iat: now(), exp: now() + 600, sub: 'alice', client_id: 'app', scope: 'notes:read', ...overrides };
    for (const key of Object.keys(all)) if (all[key] === undefined) delete all[key];
    return all;
  };
  /** Signed on loopback with this header `typ` (`null`: no `typ` at all). */
  const signed = (payload: Record<string, unknown>, typ: unknown = 'JWT') => local.sign(payload, { typ: typ === null ? undefined : typ });

  describe('ID tokens', () => {
    it("refuses oidc-provider's own ID tokens, with and without a nonce, while the access token of the same sign-in is served", async () => {
      const withNonce = await signIn(randomBytes(8).toString('hex'));
      expect(jose.decodeJwt(withNonce.id_token)).toMatchObject({ aud: as.publicClient.clientId, nonce: expect.any(String) });
      await expectRefused(url, withNonce.id_token, ID_TOKEN('it carries a nonce claim'));
      const plain = await signIn();
      const claims = jose.decodeJwt(plain.id_token);
      expect(claims).toMatchObject({ aud: as.publicClient.clientId, sub: 'alice' });
      expect(claims.nonce).toBeUndefined();
      await expectRefused(url, plain.id_token, NO_CLIENT);
      expect(jose.decodeProtectedHeader(plain.access_token).typ).toBe('at+jwt');
      await expectServed(url, plain.access_token);
    });

    it.each([
      ['nonce (typ JWT, azp)', { nonce: 'n-0S6_WzA2Mj', azp: 'app', client_id: undefined }, ID_TOKEN('it carries a nonce claim')],
      ['at_hash', { at_hash: 'HK6E_P6Dh8Y93mRNtsDB1Q' }, ID_TOKEN('it carries an at_hash claim')],
      ['c_hash', { c_hash: 'LDktKdoQak3Pk0cnXxCltA' }, ID_TOKEN('it carries a c_hash claim')],
      ['s_hash', { s_hash: 'x7rY5ILNrg7G1hMIsIRa_w' }, ID_TOKEN('it carries an s_hash claim')],
      ['Keycloak typ ID', { typ: 'ID', azp: 'app' }, ID_TOKEN('its typ claim is ID')],
      ['Keycloak typ Serialized-ID', { typ: 'Serialized-ID' }, ID_TOKEN('its typ claim is Serialized-ID')],
      ['Cognito token_use id', { token_use: 'id' }, ID_TOKEN('its token_use claim is id')],
      ['no client and no scope', { client_id: undefined, scope: undefined, email: 'alice@example.com' }, NO_CLIENT],
    ])('refuses an ID-token-shaped JWT for this server: %s', async (_name, overrides, description) => {
      await expectRefused(url, await signed(access(overrides)), description);
    });

    it('refuses an Entra ID token whose aud is the API app listed in audience (v2.0 and v1.0), app roles included', async () => {
      const v2 = { iss: local.issuer(`/${TENANT}/v2.0`), aud: ENTRA_APP, ver: '2.0', tid: TENANT, oid: 'a1', sub: 'pairwise', preferred_username: 'alice@contoso.com', roles: ['Notes.Admin'], aio: 'x', rh: 'y', uti: 'z' };
      const v1 = { iss: local.issuer(`/${TENANT}/`), aud: ENTRA_APP, ver: '1.0', tid: TENANT, oid: 'a1', sub: 'pairwise', unique_name: 'alice@contoso.com', amr: ['pwd'] };
      for (const claims of [v2, v1]) {
        const token = await signed({ ...claims, iat: now(), nbf: now(), exp: now() + 600 });
        await expectRefused(url, token, ID_TOKEN('it is a Microsoft identity platform token without azp or appid'));
      }
      // The same with the nonce MSAL sends.
      const withNonce = await signed({ ...v2, nonce: 'n', iat: now(), exp: now() + 600 });
      await expectRefused(url, withNonce, ID_TOKEN('it carries a nonce claim'));
    });
  });

  describe('other token types', () => {
    it.each([
      ['logout+jwt', 'The token is a logout token, not an access token: its typ header is logout+jwt.'],
      ['application/logout+jwt', 'The token is a logout token, not an access token: its typ header is application/logout+jwt.'],
      ['Logout+JWT', 'The token is a logout token, not an access token: its typ header is Logout+JWT.'],
      ['secevent+jwt', 'The token is a security event token, not an access token: its typ header is secevent+jwt.'],
      ['dpop+jwt', 'The token is a DPoP proof, not an access token: its typ header is dpop+jwt.'],
      ['token-introspection+jwt', 'The token is an introspection response, not an access token: its typ header is token-introspection+jwt.'],
      ['oauth-authz-req+jwt', 'The token is an authorization request, not an access token: its typ header is oauth-authz-req+jwt.'],
      ['example+jwt', 'The token is not an access token: its typ header is example+jwt, not at+jwt or JWT.'],
      [42, 'The token is not an access token: its typ header is not a string.'],
    ])('refuses a JWT of this issuer whose typ header is %j', async (typ, description) => {
      await expectRefused(url, await signed(access(), typ), description);
    });

    it('refuses a logout token as oidc-provider issues one (typ logout+jwt, events, aud the client listed in audience)', async () => {
      const logout = { iss: local.issuer('/idp'), aud: as.publicClient.clientId, iat: now(), exp: now() + 120, jti: 'l1', sub: 'alice', sid: 's1', events: { 'http://schemas.openid.net/event/backchannel-logout': {} } };
      await expectRefused(url, await signed(logout, 'logout+jwt'), 'The token is a logout token, not an access token: its typ header is logout+jwt.');
      // Its claims alone give it away too.
      await expectRefused(url, await signed({ ...logout, client_id: 'app' }, 'JWT'), 'The token is a security event token, not an access token: it carries an events claim.');
    });

    it.each([
      ['Refresh', 'a refresh token'],
      ['Offline', 'a refresh token'],
      ['Logout', 'a logout token'],
    ])('refuses a Keycloak token whose typ claim is %s', async (typ, what) => {
      await expectRefused(url, await signed(access({ typ, azp: 'app' })), `The token is ${what}, not an access token: its typ claim is ${typ}.`);
    });

    it('refuses tokens bound to a DPoP key or a client certificate, typed at+jwt or not', async () => {
      const dpop = 'The access token is bound to a DPoP key (cnf.jkt): this server accepts bearer tokens only.';
      const mtls = 'The access token is bound to a client certificate (cnf x5t#S256): this server accepts bearer tokens only.';
      await expectRefused(url, await signed(access({ cnf: { jkt: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' } })), dpop);
      await expectRefused(url, await as.sign({ ...access({ iss: as.issuer }), cnf: { jkt: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' } }), dpop);
      await expectRefused(url, await signed(access({ cnf: { 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' } })), mtls);
    });
  });

  describe('access tokens still pass', () => {
    it("serves oidc-provider's at+jwt access tokens: client credentials with a resource indicator, and a hand-made one", async () => {
      const token = await as.token({ scope: 'notes:read notes:write', resource: url });
      expect(jose.decodeProtectedHeader(token).typ).toBe('at+jwt');
      await expectServed(url, token);
      // Typed at+jwt by its issuer, a token is not second-guessed by its claims.
      await expectServed(url, await as.sign({ ...access({ iss: as.issuer }), nonce: 'n' }));
    });

    const shapes: Array<[string, () => Record<string, unknown>, unknown]> = [
      ['a plain typ JWT access token with scope', () => access(), 'JWT'],
      ['a token with no typ header and no scope (client_id only)', () => access({ scope: undefined }), null],
      [
        'Entra ID v2.0 (delegated: azp, scp)',
        () => ({ iss: local.issuer(`/${TENANT}/v2.0`), aud: ENTRA_APP, iat: now(), nbf: now(), exp: now() + 600, ver: '2.0', tid: TENANT, oid: 'a1', sub: 'p', azp: 'c0ffee00-0000-4000-8000-000000000001', azpacr: '0', scp: 'notes.read', aio: 'x', rh: 'y', uti: 'z' }),
        'JWT',
      ],
      [
        'Entra ID v2.0 (app-only: azp, roles, no scp), its aud its own app (one registration for client and API)',
        () => ({ iss: local.issuer(`/${TENANT}/v2.0`), aud: ENTRA_APP, iat: now(), exp: now() + 600, ver: '2.0', tid: TENANT, oid: 'sp', sub: 'sp', azp: ENTRA_APP, azpacr: '1', roles: ['Notes.Read.All'], idtyp: 'app' }),
        'JWT',
      ],
      [
        'Entra ID v1.0 (appid, scp)',
        () => ({ iss: local.issuer(`/${TENANT}/`), aud: ENTRA_APP, iat: now(), exp: now() + 600, ver: '1.0', tid: TENANT, oid: 'a1', sub: 'p', appid: 'c0ffee00-0000-4000-8000-000000000001', appidacr: '0', scp: 'notes.read', unique_name: 'alice@contoso.com' }),
        'JWT',
      ],
      ['Okta (no typ, cid, scp list, ver 1)', () => access({ aud: 'api://default', client_id: undefined, scope: undefined, ver: 1, jti: 'AT.x', cid: 'app', uid: 'u1', scp: ['notes:read'] }), null],
      ['Keycloak before 25 (typ claim Bearer, with the nonce it copied)', () => access({ client_id: undefined, typ: 'Bearer', azp: 'app', nonce: 'n', session_state: 's', sid: 's' }), 'JWT'],
      ['Auth0 (azp, scope, aud with userinfo, gty)', () => access({ client_id: undefined, azp: 'app', aud: [url, 'https://tenant.auth0.com/userinfo'], gty: 'client-credentials' }), 'JWT'],
      ['Auth0 RFC 9068 profile (typ at+jwt)', () => access(), 'at+jwt'],
      ['Cognito with a resource indicator (token_use access, client_id)', () => access({ token_use: 'access', version: 2, username: 'alice' }), null],
      ['Google, an ID token minted for this server (service to service: azp, email)', () => access({ client_id: undefined, scope: undefined, azp: '1008719970978', email: 'svc@p.iam.gserviceaccount.com', email_verified: true }), 'JWT'],
    ];
    it.each(shapes)('serves %s', async (_name, claims, typ) => {
      await expectServed(url, await signed(claims(), typ));
    });
  });

  describe("tokenType: 'at+jwt'", () => {
    it('serves only tokens typed at+jwt (any case, with or without application/)', async () => {
      await expectServed(typedUrl, await as.token({ scope: 'notes:read', resource: typedUrl }));
      for (const typ of ['at+jwt', 'application/at+jwt', 'AT+JWT']) await expectServed(typedUrl, await signed(access({ aud: typedUrl }), typ));
      await expectRefused(typedUrl, await signed(access({ aud: typedUrl }), 'JWT'), 'The token is not typed as an access token (typ JWT): this server requires typ at+jwt (RFC 9068).');
      await expectRefused(typedUrl, await signed(access({ aud: typedUrl }), null), 'The token is not typed as an access token (typ missing): this server requires typ at+jwt (RFC 9068).');
      await expectRefused(typedUrl, await signed(access({ aud: typedUrl }), 'logout+jwt'), 'The token is not typed as an access token (typ logout+jwt): this server requires typ at+jwt (RFC 9068).');
    });
  });

  describe('the tokenType option', () => {
    const listen = async (auth: Record<string, unknown>) => {
      const app = await McpFactory.create(NotesAuthModule);
      apps.push(app);
      return app.listen({ transport: 'http', port: 0, auth: { issuer: 'https://as.example.com', ...auth } as AuthOptions });
    };
    const FIX = "Fix: auth: { tokenType: 'at+jwt' } for an authorization server that sets typ at+jwt on its access tokens, or leave tokenType out (then ID tokens and other types are refused by their claims).";

    it.each([['JWT'], ['at_jwt'], [42], ['']])('refuses tokenType %j at listen(), naming the option and the fix', async (tokenType) => {
      await expect(listen({ tokenType })).rejects.toMatchObject({
        code: BootstrapErrorCode.InvalidAuthOptions,
        message: `Cannot serve with these auth options: tokenType must be 'at+jwt', the type RFC 9068 gives JWT access tokens (got ${JSON.stringify(tokenType)}).\n${FIX}`,
      });
    });

    it('refuses tokenType with introspection or verify, which read no JWT header', async () => {
      const fix = "Fix: leave tokenType out (an introspection answer is checked by its token_type, a verifier checks what it accepts), or verify JWTs with the issuer's keys.";
      await expect(listen({ tokenType: 'at+jwt', introspection: { endpoint: 'https://as.example.com/i', clientId: 'a', clientSecret: 'b' } })).rejects.toMatchObject({
        code: BootstrapErrorCode.InvalidAuthOptions,
        message: `Cannot serve with these auth options: tokenType is given with introspection, which reads no JWT header.\n${fix}`,
      });
      await expect(listen({ tokenType: 'at+jwt', verify: async () => ({}) as McpAuth })).rejects.toMatchObject({
        message: `Cannot serve with these auth options: tokenType is given with verify, which reads no JWT header.\n${fix}`,
      });
    });

    it("accepts 'at+jwt' spelt as a media type", async () => {
      await expect(listen({ tokenType: 'application/at+jwt' })).resolves.toBeUndefined();
      await expect(listen({ tokenType: 'AT+JWT' })).resolves.toBeUndefined();
    });
  });
});
