import 'reflect-metadata';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { authorizationUrl, browse, pkce, register, SignInModule, startUpstream, tokenRequest, type Upstream } from './support';

const REDIRECT = 'http://127.0.0.1:47400/callback';

/**
 * What the user sees and the client gets when the upstream login fails: a page saying what happened, whose
 * way back gives the client the standard OAuth error (never a hang or a 500); and consent, once per client.
 */
describe('upstream failures and remembered consent', () => {
  let upstream: Upstream;
  const apps: McpApplication[] = [];

  async function start(upstreamOptions: Record<string, unknown>, server: Record<string, unknown> = {}) {
    const app = await McpFactory.create(SignInModule);
    apps.push(app);
    await app.listen({ transport: 'http', port: 0, auth: { scopesSupported: ['notes:read'], server: { upstream: { name: 'Upstream ID', issuer: upstream.issuer, clientId: upstream.clientId, ...upstreamOptions }, ...server } } });
    const url = await app.getUrl();
    return { url, origin: new URL(url).origin };
  }
  const request = (origin: string, clientId: string) => {
    const { challenge, verifier } = pkce();
    return { verifier, url: authorizationUrl(origin, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' }) };
  };

  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await upstream?.close();
  });

  it('a wrong client secret upstream: the page names the provider\'s error, the client gets server_error', async () => {
    const { origin } = await start({ clientSecret: 'wrong' });
    upstream.register(`${origin}/oauth/callback`);
    const shown: { status: number; html: string }[] = [];
    const { url: callback } = await browse(request(origin, await register(origin, [REDIRECT])).url, REDIRECT, { onPage: (page, status, html) => page.origin === origin && shown.push({ status, html }) });
    expect(shown).toEqual([{ status: 502, html: expect.stringContaining('Signing in at Upstream ID failed: invalid_client: client authentication failed') }]);
    expect(shown[0].html).toContain('id="continue"');
    expect(callback.searchParams.get('error')).toBe('server_error');
    expect(callback.searchParams.get('error_description')).toContain('invalid_client');
  });

  it('the upstream provider down: 503 page, temporarily_unavailable to the client', async () => {
    const down = await startUpstream();
    await down.close();
    const app = await McpFactory.create(SignInModule);
    apps.push(app);
    await app.listen({ transport: 'http', port: 0, auth: { server: { upstream: { name: 'Down ID', issuer: down.issuer, clientId: 'x', clientSecret: 'y' } } } });
    const origin = new URL(await app.getUrl()).origin;
    const shown: number[] = [];
    const { url: callback } = await browse(request(origin, await register(origin, [REDIRECT])).url, REDIRECT, { onPage: (_page, status) => shown.push(status) });
    expect(shown).toEqual([503]);
    expect(callback.searchParams.get('error')).toBe('temporarily_unavailable');
    expect(callback.searchParams.get('error_description')).toMatch(/^Down ID cannot be reached right now/);
  });

  it('consent is asked once per user and client, then remembered (even in a new browser)', async () => {
    const { origin } = await start({ clientSecret: upstream.clientSecret });
    upstream.register(`${origin}/oauth/callback`);
    const clientId = await register(origin, [REDIRECT]);
    const consentPages = (pages: string[]) => pages.filter((p) => p.includes('name="decision"')).length;
    const first = await browse(request(origin, clientId).url, REDIRECT);
    expect(consentPages(first.pages)).toBe(1);
    expect(first.url.searchParams.get('code')).toBeTruthy();
    // A new browser (no cookies): signs in upstream again, but is not asked to consent again.
    const second = await browse(request(origin, clientId).url, REDIRECT);
    expect(consentPages(second.pages)).toBe(0);
    const { verifier, url } = request(origin, clientId);
    const third = await browse(url, REDIRECT, { jar: second.jar });
    const exchanged = await tokenRequest(origin, { grant_type: 'authorization_code', code: third.url.searchParams.get('code')!, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT });
    expect(exchanged.body.scope).toBe('notes:read');
    // Another client of the same user is asked.
    expect(consentPages((await browse(request(origin, await register(origin, [REDIRECT])).url, REDIRECT)).pages)).toBe(1);
  });

  it('first-party clients (consent.skip) are never asked', async () => {
    let firstParty = '';
    const { origin } = await start({ clientSecret: upstream.clientSecret }, { consent: { skip: (clientId: string) => clientId === firstParty } });
    upstream.register(`${origin}/oauth/callback`);
    firstParty = await register(origin, [REDIRECT]);
    const { url, pages } = await browse(request(origin, firstParty).url, REDIRECT);
    expect(pages.filter((p) => p.includes('name="decision"'))).toEqual([]);
    expect(url.searchParams.get('code')).toBeTruthy();
  });
});
