import 'reflect-metadata';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { rawRequest, initializeBody, JSON_AND_SSE } from '../support/http-helpers';
import { authorizationUrl, browse, pkce, register, SignInModule, startUpstream, tokenRequest, type Upstream } from './support';

const REDIRECT = 'http://127.0.0.1:47200/callback';

/** The attacks of issue 26 against the authorization server: each is refused with the standard OAuth error. */
describe('the authorization server refuses', () => {
  let upstream: Upstream;
  let app: McpApplication;
  let other: McpApplication;
  let url: string;
  let origin: string;
  let clientId: string;

  const start = (server: Record<string, unknown> = {}) =>
    McpFactory.create(SignInModule).then(async (created) => {
      await created.listen({
        transport: 'http',
        port: 0,
        auth: { scopesSupported: ['notes:read'], server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }, ...server } },
      });
      return created;
    });

  /** A code for `clientId`, through the whole sign-in (PKCE S256, resource). */
  async function code(client = clientId, redirect = REDIRECT) {
    const { verifier, challenge } = pkce();
    const request = authorizationUrl(origin, { client_id: client, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', resource: url, scope: 'notes:read' });
    const { url: callback } = await browse(request, redirect);
    const value = callback.searchParams.get('code');
    if (!value) throw new Error(`no code: ${callback.href}`);
    return { code: value, verifier };
  }
  const exchange = (c: { code: string; verifier: string }, client = clientId, redirect = REDIRECT) =>
    tokenRequest(origin, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, client_id: client, redirect_uri: redirect, resource: url });

  beforeAll(async () => {
    upstream = await startUpstream();
    app = await start();
    url = await app.getUrl();
    origin = new URL(url).origin;
    upstream.register(`${origin}/oauth/callback`);
    clientId = await register(origin, [REDIRECT]);
  });
  afterAll(async () => {
    await other?.close();
    await app?.close();
    await upstream?.close();
  });

  it.each([
    ['a redirect URI that was not registered', 'http://127.0.0.1:47200/elsewhere'],
    ['an open redirect to another site', 'https://evil.example/callback'],
    ['a registered URI with another port (web clients: exact match)', 'http://127.0.0.1:47201/callback'],
  ])('%s: shown on a page, never redirected to', async (_what, redirect) => {
    const { challenge } = pkce();
    const response = await fetch(authorizationUrl(origin, { client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', resource: url }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('redirect_uri did not match any of the client&#39;s registered redirect_uris');
  });

  it.each([
    ['PKCE missing', {}, 'Authorization Server policy requires PKCE to be used for this request'],
    ['PKCE plain', { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'not supported value of code_challenge_method'],
  ])('%s: invalid_request back to the client', async (_what, params, description) => {
    const response = await fetch(authorizationUrl(origin, { client_id: clientId, redirect_uri: REDIRECT, resource: url, ...params }), { redirect: 'manual' });
    const location = new URL(response.headers.get('location')!);
    expect({ to: `${location.origin}${location.pathname}`, error: location.searchParams.get('error'), description: location.searchParams.get('error_description') }).toEqual({
      to: REDIRECT,
      error: 'invalid_request',
      description: expect.stringContaining(description),
    });
    expect(location.searchParams.get('iss')).toBe(origin);
  });

  it('a token for another resource: invalid_target', async () => {
    const { challenge } = pkce();
    const response = await fetch(authorizationUrl(origin, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: 'https://other.example/mcp' }), { redirect: 'manual' });
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_target');
  });

  it('a wrong code verifier, a replayed code (its tokens revoked) and a code stolen for another client: invalid_grant', async () => {
    const first = await code();
    expect(await exchange({ ...first, verifier: pkce().verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const second = await code();
    const issued = await exchange(second);
    expect(issued.status).toBe(200);
    expect(await exchange(second)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The replay ended the grant: the refresh token issued for the code is gone too.
    expect(await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token), client_id: clientId })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const thief = await register(origin, [REDIRECT]);
    const stolen = await code();
    expect(await exchange(stolen, thief)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a refresh token used again after rotation: invalid_grant, and the whole family is revoked', async () => {
    const issued = (await exchange(await code())).body;
    const rotated = await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: String(issued.refresh_token), client_id: clientId });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(issued.refresh_token);
    expect(await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: String(issued.refresh_token), client_id: clientId })).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'grant request is invalid' } });
    expect(await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: String(rotated.body.refresh_token), client_id: clientId })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a token of this server sent to another resource that trusts this issuer: 401 (audience)', async () => {
    const token = String((await exchange(await code())).body.access_token);
    other = await McpFactory.create(SignInModule);
    await other.listen({ transport: 'http', port: 0, auth: { issuer: origin, jwksUri: `${origin}/oauth/jwks` } });
    const response = await rawRequest(await other.getUrl(), { headers: { ...JSON_AND_SSE, authorization: `Bearer ${token}` }, body: initializeBody() });
    expect({ status: response.status, body: JSON.parse(response.body) }).toEqual({
      status: 401,
      body: { error: 'invalid_token', error_description: 'The access token was not issued for this server (audience).' },
    });
    // And to this server it is good.
    expect((await rawRequest(url, { headers: { ...JSON_AND_SSE, authorization: `Bearer ${token}` }, body: initializeBody() })).status).toBe(200);
  });

  it('a consent form without its CSRF token, or with another interaction’s: 403, and no code', async () => {
    const { challenge } = pkce();
    let consentAction: string | undefined;
    let jar: Parameters<typeof browse>[2] extends infer O ? (O extends { jar?: infer J } ? J : never) : never;
    // Sign in, stop at the consent page (a fresh client: nothing remembered yet).
    const fresh = await register(origin, [REDIRECT]);
    const request = authorizationUrl(origin, { client_id: fresh, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: url });
    await browse(request, REDIRECT, {
      decision: 'deny',
      onPage: (page, _status, html) => {
        const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
        if (action) consentAction = new URL(action, page).href;
      },
    }).then((r) => (jar = r.jar));
    expect(consentAction).toBeDefined();
    // Forged: the right cookies (a CSRF attack rides on them), no or a wrong token.
    const cookie = [...(jar!.get(origin) ?? [])].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const csrf of ['', 'forged-token']) {
      const forged = await fetch(consentAction!, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, decision: 'allow' }) });
      expect(forged.status).toBeGreaterThanOrEqual(400);
      expect(forged.headers.get('location')).toBeNull();
    }
  });

  it('the user denies on the consent page: access_denied back to the client', async () => {
    const fresh = await register(origin, [REDIRECT]);
    const { challenge } = pkce();
    const { url: callback } = await browse(authorizationUrl(origin, { client_id: fresh, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: url }), REDIRECT, { decision: 'deny' });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('error_description')).toBe('The user declined to authorize the application.');
  });

  it('an unknown upstream state: a page, not a hang or a 500', async () => {
    const response = await fetch(`${origin}/oauth/callback?code=x&state=forged`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await response.text()).toContain('This sign-in has expired or is unknown');
  });

  it('the consent page: a native client\'s whole redirect URI as the destination, its self-chosen name without bidi or control characters, marked unverified (issue 38, item 6)', async () => {
    const native = 'com.example.notes:/oauth/callback';
    const spoof = await register(origin, [native], { client_name: 'Evil\u202Eelgoog\u0007 Inc', application_type: 'native' });
    const { challenge } = pkce();
    let consent = '';
    await browse(authorizationUrl(origin, { client_id: spoof, redirect_uri: native, code_challenge: challenge, code_challenge_method: 'S256', resource: url }), 'com.example.notes:', {
      decision: 'deny',
      onPage: (_page, _status, html) => {
        if (html.includes('name="decision"')) consent = html;
      },
    });
    expect(consent).not.toBe('');
    expect(consent).not.toMatch(/[\u202a-\u202e\u0007]/);
    expect(consent).toContain('<title>Allow Evil\ufffdelgoog\ufffd Inc?</title>');
    expect(consent).toContain('<strong>Evil\ufffdelgoog\ufffd Inc</strong> <small>(a name the application gave itself, not verified)</small>');
    expect(consent).toContain(`will send you back to <strong>${native}</strong>`);
  });

  it('a token request refused for its resource consumes nothing: the code, then the refresh token, still work; <mcp>/ is the same resource everywhere (issue 38, item 5)', async () => {
    const first = await code();
    const wrong = await tokenRequest(origin, { grant_type: 'authorization_code', code: first.code, code_verifier: first.verifier, client_id: clientId, redirect_uri: REDIRECT, resource: 'https://other.example/mcp' });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    const issued = await exchange(first);
    expect(issued.status).toBe(200);
    const refused = await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token), client_id: clientId, resource: 'https://other.example/mcp' });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    // Not counted as reuse: the same refresh token works, with the resource written with a trailing slash.
    const refreshed = await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token), client_id: clientId, resource: `${url}/` });
    expect({ status: refreshed.status, error: refreshed.body.error }).toEqual({ status: 200, error: undefined });

    // Asked at authorize with the trailing slash: the code and its refresh work with either form.
    const { verifier, challenge } = pkce();
    const { url: callback } = await browse(authorizationUrl(origin, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: `${url}/`, scope: 'notes:read' }), REDIRECT);
    const slashed = await tokenRequest(origin, { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource: `${url}/` });
    expect(slashed.status).toBe(200);
    const again = await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: String(slashed.body.refresh_token), client_id: clientId, resource: url });
    expect({ status: again.status, error: again.body.error }).toEqual({ status: 200, error: undefined });
  });
});
