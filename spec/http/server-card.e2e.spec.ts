import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BootstrapError, Injectable, McpFactory, McpModule, Module, Param, Tool, UiResource, type FetchHandler, type McpApplication } from 'mcp-reflect';

@Injectable()
class NoteTools {
  @Tool({ description: 'Finds notes' })
  search(@Param() query: string): string {
    return `found ${query}`;
  }

  @UiResource('ui://notes/board')
  board(): string {
    return '<p>board</p>';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'notes', version: '2.3.0', title: 'Team Notes' })], providers: [NoteTools] })
class NotesModule {}

/** What the specs read of a card. */
interface Card {
  version: string;
  title?: string;
  remotes: { url: string }[];
  _meta: Record<string, unknown>;
}

const CARD = { name: 'io.github.acme/notes', description: 'Team notes: search, read and write.' };
const VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

/** Serves `handler` with @hono/node-server on 127.0.0.1 (a fetch-handler runtime on a real socket). */
async function honoServer(handler: FetchHandler): Promise<{ origin: string; server: ServerType }> {
  const server = serve({ fetch: (request, env) => handler(request, 'incoming' in env ? { remoteAddress: env.incoming.socket.remoteAddress } : {}), hostname: '127.0.0.1', port: 0, overrideGlobalObjects: false });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

@Injectable()
class SearchOnly {
  @Tool({ description: 'Finds notes' })
  search(@Param() query: string): string {
    return `found ${query}`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'plain', version: '1.0.0' })], providers: [SearchOnly] })
class PlainModule {}

@Module({ providers: [NoteTools] })
class SharedNotesModule {}

@Module({
  imports: [
    McpModule.forRoot({ name: 'team', version: '1.0.0', modules: [SharedNotesModule] }),
    McpModule.forRoot({ name: 'admin', version: '2.0.0', modules: [SharedNotesModule] }),
  ],
})
class TwoServersModule {}

describe('the server card (SEP-2127), opt-in with serverCard', () => {
  let app: McpApplication;
  const servers: ServerType[] = [];
  beforeEach(async () => {
    app = await McpFactory.create(NotesModule);
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
  });

  it('listen(): GET <endpoint>/server-card and /.well-known/mcp/server-card answer the card, built from the application', async () => {
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, serverCard: { ...CARD, websiteUrl: 'https://acme.example/notes', repository: { url: 'https://github.com/acme/notes', source: 'github' } } });
    const url = await app.getUrl();
    const response = await fetch(`${url}/server-card`, { headers: { accept: 'application/mcp-server-card+json' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toBe('ETag');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{16}"$/);
    const card = (await response.json()) as Card;
    expect(card).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'io.github.acme/notes',
      version: '2.3.0',
      description: 'Team notes: search, read and write.',
      title: 'Team Notes',
      websiteUrl: 'https://acme.example/notes',
      repository: { url: 'https://github.com/acme/notes', source: 'github' },
      remotes: [{ type: 'streamable-http', url, supportedProtocolVersions: VERSIONS }],
      _meta: { 'io.github.mcp-reflect/extensions': UI },
    });
    const wellKnown = await fetch(new URL('/.well-known/mcp/server-card', url));
    expect(await wellKnown.json()).toEqual(card);

    // The card's endpoint is the one that serves: an SDK client connects there and meets the card's version.
    const client = new Client({ name: 'card-spec', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(card.remotes[0].url)));
    expect(client.getServerVersion()).toMatchObject({ name: 'notes', version: card.version, title: card.title });
    await client.close();
  });

  it('listen(): revalidation (If-None-Match → 304), HEAD, the CORS preflight, and 405 for other methods', async () => {
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, serverCard: CARD });
    const card = `${await app.getUrl()}/server-card`;
    const first = await fetch(card);
    const etag = first.headers.get('etag')!;
    await first.text();
    const again = await fetch(card, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const changed = await fetch(card, { headers: { 'if-none-match': '"0000000000000000"' } });
    expect(changed.status).toBe(200);
    await changed.text();
    const head = await fetch(card, { method: 'HEAD' });
    expect([head.status, head.headers.get('etag')]).toEqual([200, etag]);
    const preflight = await fetch(card, { method: 'OPTIONS', headers: { origin: 'https://catalog.example', 'access-control-request-method': 'GET' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin'), preflight.headers.get('access-control-allow-headers')]).toEqual([204, '*', 'Content-Type, If-None-Match']);
    const post = await fetch(card, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
  });

  it('listen() with auth: the card is public and names the protected resource metadata and the authorization server', async () => {
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, serverCard: CARD, auth: { issuer: 'https://auth.example.com', scopesSupported: ['notes:read'] } });
    const url = await app.getUrl();
    const response = await fetch(`${url}/server-card`);
    expect(response.status).toBe(200);
    const card = (await response.json()) as Card;
    expect(card._meta['io.github.mcp-reflect/authorization']).toEqual({
      resourceMetadata: `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`,
      resource: url,
      authorizationServers: ['https://auth.example.com'],
      scopesSupported: ['notes:read'],
    });
    // The MCP endpoint itself still wants a token.
    expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
  });

  it('servers.listen(): each endpoint its own card; the well-known path is the first card\'s', async () => {
    const both = await McpFactory.createServers(TwoServersModule);
    try {
      await both.listen({
        transport: 'http',
        host: '127.0.0.1',
        port: 0,
        endpoints: { team: { path: '/team', serverCard: { ...CARD, name: 'io.github.acme/team' } }, admin: { path: '/admin', serverCard: { ...CARD, name: 'io.github.acme/admin' } } },
      });
      const team = await both.get('team').getUrl();
      const admin = await both.get('admin').getUrl();
      const nameAt = async (url: string | URL) => ((await (await fetch(url)).json()) as { name: string; version: string }).name;
      expect(await nameAt(`${team}/server-card`)).toBe('io.github.acme/team');
      expect(await nameAt(`${admin}/server-card`)).toBe('io.github.acme/admin');
      expect(await nameAt(new URL('/.well-known/mcp/server-card', team))).toBe('io.github.acme/team');
    } finally {
      await both.close();
    }
  });

  it('a card answered from memory follows the extensions: a view added later shows in the next card, under a new ETag', async () => {
    const plain = await McpFactory.create(PlainModule);
    try {
      await plain.listen({ transport: 'http', host: '127.0.0.1', port: 0, serverCard: CARD });
      const url = `${await plain.getUrl()}/server-card`;
      const before = await fetch(url);
      expect(((await before.json()) as Card)._meta).toBeUndefined();
      plain.providers.add({
        source: 'a spec',
        components: () => ({ resources: [{ uri: 'ui://notes/later', name: 'later', mimeType: 'text/html;profile=mcp-app', read: () => '<p>later</p>' }] }),
      });
      const after = await fetch(url, { headers: { 'if-none-match': before.headers.get('etag')! } });
      expect(after.status).toBe(200);
      expect(((await after.json()) as Card)._meta).toEqual({ 'io.github.mcp-reflect/extensions': UI });
    } finally {
      await plain.close();
    }
  });

  it('listen() without serverCard serves no card', async () => {
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    const url = await app.getUrl();
    expect((await fetch(`${url}/server-card`)).status).toBe(404);
    expect((await fetch(new URL('/.well-known/mcp/server-card', url))).status).toBe(404);
  });

  it('createFetchHandler() on a real socket: the card at <path>/server-card, with the public url given', async () => {
    const handler = app.createFetchHandler({ path: '/mcp', serverCard: { ...CARD, url: 'https://notes.acme.example/mcp' } });
    expect(handler.serverCardPaths).toEqual(['/mcp/server-card', '/.well-known/mcp/server-card']);
    const { origin, server } = await honoServer(handler);
    servers.push(server);
    const card = (await (await fetch(`${origin}/mcp/server-card`)).json()) as Card;
    expect(card.remotes).toEqual([{ type: 'streamable-http', url: 'https://notes.acme.example/mcp', supportedProtocolVersions: VERSIONS }]);
    expect(await (await fetch(`${origin}/.well-known/mcp/server-card`)).json()).toEqual(card);
    expect((await fetch(`${origin}/elsewhere/server-card`)).status).toBe(404);
  });

  it('createFetchHandler() without a path or url: the endpoint is the URL the card was asked at, less /server-card', async () => {
    const handler = app.createFetchHandler({ serverCard: CARD });
    const { origin, server } = await honoServer(handler);
    servers.push(server);
    const card = (await (await fetch(`${origin}/tenant-a/mcp/server-card`)).json()) as Card;
    expect(card.remotes[0].url).toBe(`${origin}/tenant-a/mcp`);
    // A Host this loopback server does not answer to is refused (DNS rebinding), card or not.
    const rebound = await handler(new Request('http://evil.example/mcp/server-card'), { remoteAddress: '127.0.0.1' });
    expect(rebound.status).toBe(403);
  });

  it.each([
    [{ ...CARD, name: 'notes' }, `name "notes" is not a reverse-DNS name with one slash (3 to 200 characters of letters, digits, '.', '-', '_'), e.g. 'io.github.acme/notes'`],
    [{ ...CARD, description: 'x'.repeat(101) }, 'description must be 1 to 100 characters (it is 101 characters)'],
    [{ ...CARD, version: '^2.0.0' }, "version '^2.0.0' is a range or too long: give one version, e.g. '1.2.3'"],
    [{ ...CARD, url: 'ftp://notes.example/mcp' }, "url 'ftp://notes.example/mcp' is not an http(s) URL"],
  ])('a card the schema would refuse stops the endpoint from starting, naming what is wrong', (serverCard, problem) => {
    let thrown: unknown;
    try {
      app.createFetchHandler({ serverCard });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BootstrapError);
    expect((thrown as BootstrapError).code).toBe('INVALID_OPTION');
    expect((thrown as Error).message).toBe(`Cannot serve the server card (serverCard): ${problem}.\nFix: correct serverCard in the HTTP options (docs/http.md#server-card).`);
  });
});
