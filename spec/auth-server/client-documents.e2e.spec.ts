import 'reflect-metadata';
import type { ServerResponse } from 'node:http';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { startHttpsSite, type HttpsSite } from './https-server';
import { isPublicHost } from '../../lib/auth/server/client-documents';
import { AppClientProvider, authorizationUrl, browse, pkce, SignInModule, startUpstream, type Upstream } from './support';

/** A client's metadata document at `<site>/<name>.json`, redirecting to a loopback URI without a port (RFC 8252 §7.3). */
const documentOf = (clientId: string) => ({
  client_id: clientId,
  client_name: 'Spec CIMD App',
  redirect_uris: ['http://127.0.0.1/callback'],
  application_type: 'native',
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
});

describe('Client ID Metadata Documents', () => {
  let upstream: Upstream;
  let site: HttpsSite;
  const apps: McpApplication[] = [];
  const clients: Client[] = [];
  const stalled: ServerResponse[] = [];

  async function start(documents: Record<string, unknown>) {
    const app = await McpFactory.create(SignInModule);
    apps.push(app);
    await app.listen({
      transport: 'http',
      port: 0,
      auth: { scopesSupported: ['notes:read'], server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }, registration: false, clientIdMetadataDocuments: documents } },
    });
    const url = await app.getUrl();
    return { url, origin: new URL(url).origin };
  }

  beforeAll(async () => {
    upstream = await startUpstream();
    site = await startHttpsSite((req, res) => {
      const p = new URL(req.url ?? '/', 'https://x').pathname;
      if (p === '/huge.json') {
        // 100 MB, streamed: the reader must stop long before.
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 100 && res.write(chunk)) sent++;
          if (sent < 100) res.once('drain', pump);
          else res.end();
        };
        res.on('error', () => undefined);
        return pump();
      }
      if (p === '/slow.json') return void stalled.push(res);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(JSON.stringify(documentOf(`${site.origin}${p}`)));
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    for (const app of apps) await app.close();
    for (const res of stalled) res.destroy();
    await site?.close();
    await upstream?.close();
  });

  it('the SDK client names its document as its client id; any loopback port is accepted for a native client; the document is fetched once', async () => {
    const { url, origin } = await start({ allowPrivateNetworks: true, fetch: site.fetch });
    upstream.register(`${origin}/oauth/callback`);
    const provider = new AppClientProvider('http://127.0.0.1:47300/callback', `${site.origin}/desktop.json`);
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await expect(new Client({ name: 'cimd', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.redirects[0].searchParams.get('client_id')).toBe(`${site.origin}/desktop.json`);
    const { url: callback, pages } = await browse(provider.redirects[0], 'http://127.0.0.1:47300/callback');
    expect(pages.some((p) => p.includes('Allow <strong>Spec CIMD App</strong>') && p.includes('127.0.0.1:47300'))).toBe(true);
    await transport.finishAuth(callback.searchParams);
    const client = new Client({ name: 'cimd', version: '1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toMatchObject({ subject: 'alice', clientId: `${site.origin}/desktop.json` });
    // Cached (its Cache-Control): the authorization and token requests did not fetch it again.
    expect(site.hits('/desktop.json')).toBe(1);
  });

  describe('refuses documents it must not fetch', () => {
    let guarded: string;
    let open: string;
    beforeAll(async () => {
      guarded = (await start({})).origin;
      open = (await start({ allowPrivateNetworks: true, fetch: site.fetch })).origin;
    });

    const authorize = async (origin: string, clientId: string) => {
      const { challenge } = pkce();
      const response = await fetch(authorizationUrl(origin, { client_id: clientId, redirect_uri: 'http://127.0.0.1:47301/callback', code_challenge: challenge, code_challenge_method: 'S256' }), { redirect: 'manual' });
      return { status: response.status, location: response.headers.get('location'), page: await response.text() };
    };

    it.each([
      ['loopback (127.0.0.1)', () => `${site.origin}/desktop.json`],
      ['the cloud metadata address (169.254.169.254)', () => 'https://169.254.169.254/latest/client.json'],
      ['a private address (10.0.0.1)', () => 'https://10.0.0.1/client.json'],
    ])('on %s, without a connection', async (_what, clientId) => {
      const before = site.hits('/desktop.json');
      const answer = await authorize(guarded, clientId());
      expect(answer).toMatchObject({ status: 400, location: null });
      expect(answer.page).toContain('invalid_client: client_id metadata document fetch not allowed');
      expect(site.hits('/desktop.json')).toBe(before);
    });

    it('a 100 MB document: read no further than its bound, refused', async () => {
      const answer = await authorize(open, `${site.origin}/huge.json`);
      expect(answer).toMatchObject({ status: 400, location: null });
      expect(answer.page).toContain('invalid_client: client_id metadata document fetch failed');
    });

    it('a server that never answers: given up on, refused', async () => {
      const answer = await authorize(open, `${site.origin}/slow.json`);
      expect(answer).toMatchObject({ status: 400, location: null });
      expect(answer.page).toContain('invalid_client: client_id metadata document fetch failed');
    });
  });

  describe('allowPrivateNetworks is about metadata documents only (issue 38, item 4)', () => {
    it("a registered client's jwks_uri on loopback is never fetched (only the allowed document is)", async () => {
      const seen: { url: string; guarded: boolean }[] = [];
      const recording = ((input: string | URL | Request, init?: RequestInit & { dispatcher?: unknown }) => {
        seen.push({ url: String(input instanceof Request ? input.url : input), guarded: init?.dispatcher !== undefined });
        return site.fetch(input, init);
      }) as typeof fetch;
      const app = await McpFactory.create(SignInModule);
      apps.push(app);
      await app.listen({
        transport: 'http',
        port: 0,
        auth: { server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }, clientIdMetadataDocuments: { allowPrivateNetworks: true, fetch: recording } } },
      });
      const origin = new URL(await app.getUrl()).origin;
      // A document on loopback, allowed: fetched without the guard.
      const { challenge } = pkce();
      await fetch(authorizationUrl(origin, { client_id: `${site.origin}/private.json`, redirect_uri: 'http://127.0.0.1:47301/callback', code_challenge: challenge, code_challenge_method: 'S256' }), { redirect: 'manual' });
      // A registered client whose keys are on loopback: its client assertion makes the provider fetch them.
      const registered = await fetch(`${origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:47301/callback'], token_endpoint_auth_method: 'private_key_jwt', jwks_uri: `${site.origin}/keys.json`, grant_types: ['authorization_code'], response_types: ['code'] }),
      });
      const clientId = ((await registered.json()) as { client_id?: string }).client_id;
      expect(clientId).toEqual(expect.any(String));
      const assertion = `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: clientId, sub: clientId, aud: origin, jti: 'x', exp: Math.floor(Date.now() / 1000) + 60 })).toString('base64url')}.c2ln`;
      await fetch(`${origin}/oauth/revoke`, {
        method: 'POST',
        body: new URLSearchParams({ token: 'x', client_id: clientId!, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion }),
      });
      expect(seen).toEqual([{ url: `${site.origin}/private.json`, guarded: false }]);
    });

    it.each([
      ['::127.0.0.1', false],
      ['::ffff:127.0.0.1', false],
      ['64:ff9b::7f00:1', false],
      ['64:ff9b::a00:1', false],
      ['fec0::1', false],
      ['2002:7f00:1::1', false],
      ['fd00::1', false],
      ['fe80::1', false],
      ['198.18.0.1', false],
      ['224.0.0.1', false],
      ['93.184.215.14', true],
      ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', true],
    ])('the address check: %s public? %s', async (address, expected) => {
      expect(await isPublicHost(address)).toBe(expected);
    });
  });
});
