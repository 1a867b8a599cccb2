import 'reflect-metadata';
import type { ServerResponse } from 'node:http';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { startHttpsSite, type HttpsSite } from './https-server';
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
});
