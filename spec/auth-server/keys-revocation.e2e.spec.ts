import 'reflect-metadata';
import { generateKeyPairSync } from 'node:crypto';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { initializeBody, JSON_AND_SSE, rawRequest } from '../support/http-helpers';
import { authorizationUrl, browse, pkce, register, SignInModule, startUpstream, tokenRequest, type Upstream } from './support';
import { freePort } from '../support/free-port';

const REDIRECT = 'http://127.0.0.1:47300/callback';


/** A private ES256 signing JWK. */
const signingKey = (kid: string) => ({ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' });
const headerOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { kid?: string };

/** Signing keys rotated across restarts, and revocation (RFC 7009), on the authorization server of issue 26. */
describe('the authorization server: key rotation and revocation', () => {
  let upstream: Upstream;
  let app: McpApplication | undefined;
  let port: number;
  const a = signingKey('key-a');
  const b = signingKey('key-b');

  const start = async (signing: Record<string, unknown>[]) => {
    await app?.close();
    app = await McpFactory.create(SignInModule);
    await app.listen({
      transport: 'http',
      port,
      auth: { scopesSupported: ['notes:read'], server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }, keys: { signing } } },
    });
    const url = await app.getUrl();
    // fetch's pool may hold connections to the server just closed on this port: let it see them closed first.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { url, origin: new URL(url).origin };
  };

  /** Tokens through the whole sign-in: a client registered anew (the memory store starts empty), PKCE S256, the resource. */
  const signIn = async ({ url, origin }: { url: string; origin: string }) => {
    const clientId = await register(origin, [REDIRECT]);
    const { verifier, challenge } = pkce();
    const request = authorizationUrl(origin, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: url, scope: 'notes:read' });
    const { url: callback } = await browse(request, REDIRECT);
    const issued = await tokenRequest(origin, { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource: url });
    expect(issued.status).toBe(200);
    return { clientId, access: String(issued.body.access_token), refresh: String(issued.body.refresh_token) };
  };
  const mcpStatus = async (url: string, token: string) => (await rawRequest(url, { headers: { ...JSON_AND_SSE, authorization: `Bearer ${token}` }, body: initializeBody() })).status;

  beforeAll(async () => {
    upstream = await startUpstream();
    port = await freePort();
    upstream.register(`http://127.0.0.1:${port}/oauth/callback`);
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it('signs with the first key, keeps verifying with the others, and stops accepting a key that is dropped', async () => {
    let server = await start([a]);
    const first = await signIn(server);
    expect(headerOf(first.access).kid).toBe('key-a');
    expect(await mcpStatus(server.url, first.access)).toBe(200);

    // A new key first: new tokens are signed with it, tokens signed with the old one still work.
    server = await start([b, a]);
    const jwks = (await (await fetch(`${server.origin}/oauth/jwks`)).json()) as { keys: { kid: string; d?: unknown }[] };
    expect(jwks.keys.map((key) => key.kid).sort()).toEqual(['key-a', 'key-b']);
    expect(jwks.keys.some((key) => key.d !== undefined)).toBe(false); // public halves only
    const second = await signIn(server);
    expect(headerOf(second.access).kid).toBe('key-b');
    expect(await mcpStatus(server.url, first.access)).toBe(200);
    expect(await mcpStatus(server.url, second.access)).toBe(200);

    // The old key dropped: its tokens are refused.
    server = await start([b]);
    expect(await mcpStatus(server.url, first.access)).toBe(401);
    expect(await mcpStatus(server.url, second.access)).toBe(200);
  }, 60_000);

  it('revokes a refresh token (RFC 7009): it refreshes no more', async () => {
    const server = await start([a]);
    const tokens = await signIn(server);
    const revoked = await fetch(`${server.origin}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ token: tokens.refresh, token_type_hint: 'refresh_token', client_id: tokens.clientId }) });
    expect(revoked.status).toBe(200);
    const refreshed = await tokenRequest(server.origin, { grant_type: 'refresh_token', refresh_token: tokens.refresh, client_id: tokens.clientId });
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  }, 60_000);

  it.each([
    ['a revocation of its refresh token (RFC 7009)', 'revoke'],
    ['a reuse of its rotated refresh token', 'reuse'],
  ])('an access token is refused at once after %s ends its grant (issue 38, item 7)', async (_what, how) => {
    const server = await start([a]);
    const tokens = await signIn(server);
    expect(await mcpStatus(server.url, tokens.access)).toBe(200);
    if (how === 'revoke') {
      await fetch(`${server.origin}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ token: tokens.refresh, token_type_hint: 'refresh_token', client_id: tokens.clientId }) });
    } else {
      expect((await tokenRequest(server.origin, { grant_type: 'refresh_token', refresh_token: tokens.refresh, client_id: tokens.clientId })).status).toBe(200);
      expect((await tokenRequest(server.origin, { grant_type: 'refresh_token', refresh_token: tokens.refresh, client_id: tokens.clientId })).status).toBe(400);
    }
    const answer = await rawRequest(server.url, { headers: { ...JSON_AND_SSE, authorization: `Bearer ${tokens.access}` }, body: initializeBody() });
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 401, body: { error: 'invalid_token', error_description: 'The access token has been revoked.' } });
  }, 60_000);

  it('the documented clock tolerance (30 s) and message: a token expired 10 s ago is accepted, one expired 60 s ago is refused as expired', async () => {
    const server = await start([a]);
    const jose = require('jose') as typeof import('jose');
    const key = await jose.importJWK(a as never, 'ES256');
    const now = Math.floor(Date.now() / 1000);
    const token = (exp: number) =>
      new jose.SignJWT({ scope: 'notes:read', client_id: 'c' }).setProtectedHeader({ alg: 'ES256', kid: 'key-a', typ: 'at+jwt' }).setIssuer(server.origin).setAudience(server.url).setSubject('alice').setIssuedAt(exp - 3600).setExpirationTime(exp).sign(key);
    expect(await mcpStatus(server.url, await token(now - 10))).toBe(200);
    const answer = await rawRequest(server.url, { headers: { ...JSON_AND_SSE, authorization: `Bearer ${await token(now - 60)}` }, body: initializeBody() });
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 401, body: { error: 'invalid_token', error_description: 'The access token has expired.' } });
  }, 60_000);

  it('logout ends the login session and forgets every remembered consent: the tokens are refused, the next sign-in asks again (issue 38, item 7)', async () => {
    const server = await start([a]);
    const clientId = await register(server.origin, [REDIRECT]);
    const signInWith = async (jar?: Parameters<typeof browse>[2] extends infer O ? (O extends { jar?: infer J } ? J : never) : never) => {
      const { verifier, challenge } = pkce();
      const pages: string[] = [];
      const result = await browse(authorizationUrl(server.origin, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: server.url, scope: 'notes:read' }), REDIRECT, { jar, onPage: (_u, _s, html) => pages.push(html) });
      const issued = await tokenRequest(server.origin, { grant_type: 'authorization_code', code: result.url.searchParams.get('code')!, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource: server.url });
      return { jar: result.jar, consent: pages.some((html) => html.includes('name="decision"')), access: String(issued.body.access_token), refresh: String(issued.body.refresh_token) };
    };
    const first = await signInWith();
    expect(first.consent).toBe(true);
    // Remembered: the same browser signs in again without a consent page.
    const second = await signInWith(first.jar);
    expect(second.consent).toBe(false);
    expect(await mcpStatus(server.url, second.access)).toBe(200);

    // Logout, as the browser does it: the page, then its form.
    const cookie = [...(first.jar.get(server.origin) ?? [])].map(([k, v]) => `${k}=${v}`).join('; ');
    const page = await fetch(`${server.origin}/oauth/logout`, { headers: { cookie } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(html).toContain('Sign out of this server?');
    const action = /<form id="op.logoutForm" method="post" action="([^"]*)"/.exec(html)![1];
    const xsrf = /name="xsrf" value="([^"]*)"/.exec(html)![1];
    const confirmed = await fetch(action, { method: 'POST', redirect: 'manual', headers: { cookie, origin: 'null', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ xsrf, logout: 'yes' }) });
    expect(confirmed.status).toBe(303);
    const done = await fetch(new URL(confirmed.headers.get('location')!, server.origin));
    expect(await done.text()).toContain('You are signed out');

    // Every token of the remembered grant is refused at once; the next sign-in asks for consent again.
    expect(await mcpStatus(server.url, second.access)).toBe(401);
    expect((await tokenRequest(server.origin, { grant_type: 'refresh_token', refresh_token: second.refresh, client_id: clientId })).status).toBe(400);
    const third = await signInWith(first.jar);
    expect(third.consent).toBe(true);
  }, 60_000);
});
