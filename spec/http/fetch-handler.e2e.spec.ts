import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ctx, Injectable, McpFactory, McpModule, Module, Param, Tool, type Context, type FetchHandler, type McpApplication } from 'mcp-reflect';
import { JSON_AND_SSE, initializeBody, rawRequest } from '../support/http-helpers';

@Injectable()
class Tools {
  @Tool({ description: 'Adds two numbers' })
  add(@Param() a: number, @Param() b: number): string {
    return String(a + b);
  }

  @Tool({ description: 'Counts to three, reporting progress' })
  async count(@Ctx() ctx: Context): Promise<string> {
    for (let i = 1; i <= 3; i++) await ctx.reportProgress(i, 3, `step ${i}`);
    return 'counted';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'fetch', version: '1.0.0' })], providers: [Tools] })
class FetchModule {}

/** The SDK client, speaking to the handler in this process through its `fetch` option: no socket between them. */
async function clientOf(handler: FetchHandler, era: '2025-11-25' | '2026-07-28', url = 'http://mcp.test/mcp'): Promise<Client> {
  const client = new Client({ name: 'fetch-spec', version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  const fetch = (input: string | URL | Request, init?: RequestInit) => handler(new Request(input, init));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch }));
  return client;
}

const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text;

describe('app.createFetchHandler(): the MCP endpoint as a web-standard (Request) => Response handler', () => {
  let app: McpApplication;
  beforeEach(async () => {
    app = await McpFactory.create(FetchModule);
  });
  afterEach(() => app.close());

  it.each(['2025-11-25', '2026-07-28'] as const)('serves the SDK client in %s with sessions: lists, calls, progress over SSE', async (era) => {
    const handler = app.createFetchHandler({ path: '/mcp' });
    const client = await clientOf(handler, era);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['add', 'count']);
      expect(text(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
      const progress: string[] = [];
      const counted = await client.callTool({ name: 'count', arguments: {} }, { onprogress: (p) => void progress.push(String(p.message)) });
      expect(text(counted)).toBe('counted');
      expect(progress).toEqual(['step 1', 'step 2', 'step 3']);
    } finally {
      await client.close();
    }
  });

  it('serves stateless, as a runtime without memory between requests needs', async () => {
    const handler = app.createFetchHandler({ stateless: true });
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const client = await clientOf(handler, era, 'http://mcp.test/anywhere');
      expect(text(await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } }))).toBe('42');
      await client.close();
    }
  });

  it('answers other paths 404 when it has a path, and GET /healthz', async () => {
    const handler = app.createFetchHandler({ path: '/mcp' });
    const other = await handler(new Request('http://mcp.test/other', { method: 'POST', headers: JSON_AND_SSE, body: initializeBody() }));
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: -32000, message: 'Not found: the MCP endpoint is /mcp' } });
    expect((await handler(new Request('http://mcp.test/healthz'))).status).toBe(200);
  });

  it('counts sessions per client by the address it is given (maxSessionsPerClient)', async () => {
    const handler = app.createFetchHandler({ maxSessionsPerClient: 1 });
    const open = async (remoteAddress: string) => {
      const response = await handler(new Request('http://mcp.test/mcp', { method: 'POST', headers: JSON_AND_SSE, body: initializeBody() }), { remoteAddress });
      await response.text();
      return response.status;
    };
    expect(await open('10.0.0.1')).toBe(200);
    expect(await open('10.0.0.1')).toBe(429);
    expect(await open('10.0.0.2')).toBe(200);
  });

  it('is an OAuth resource server with auth: 401 with the metadata URL without a token, and the metadata itself', async () => {
    const handler = app.createFetchHandler({ path: '/mcp', auth: { issuer: 'https://issuer.example.com', jwksUri: 'https://issuer.example.com/jwks', resource: 'https://mcp.example.com/mcp' } });
    const refused = await handler(new Request('https://mcp.example.com/mcp', { method: 'POST', headers: JSON_AND_SSE, body: initializeBody() }));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"');
    const metadata = await handler(new Request('https://mcp.example.com/.well-known/oauth-protected-resource/mcp'));
    expect(await metadata.json()).toMatchObject({ resource: 'https://mcp.example.com/mcp', authorization_servers: ['https://issuer.example.com'] });
  });

  /** The same bad requests to both faces of the endpoint: the Node handler on a real port, the fetch handler in process. */
  describe('answers bad requests as the Node handler does', () => {
    const bad: [string, { method?: string; headers?: Record<string, string>; body?: string }][] = [
      ['a body that is not JSON', { headers: JSON_AND_SSE, body: '{"jsonrpc": ' }],
      ['a Content-Type that is not JSON', { headers: { ...JSON_AND_SSE, 'content-type': 'text/plain' }, body: initializeBody() }],
      ['a body over maxRequestBodySize', { headers: JSON_AND_SSE, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(4096) } }) }],
      ['a request without a session after none was opened', { headers: { ...JSON_AND_SSE, 'mcp-session-id': 'no-such-session' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) }],
      ['a GET without a session', { method: 'GET', headers: { accept: 'text/event-stream' } }],
      ['a DELETE without a session', { method: 'DELETE' }],
      ['an Accept without event streams', { headers: { 'content-type': 'application/json', accept: 'text/html' }, body: initializeBody() }],
      ['a protocol version it does not speak', { headers: { ...JSON_AND_SSE, 'mcp-protocol-version': '1999-01-01' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) }],
    ];
    let url: string;
    let fetchHandler: FetchHandler;
    beforeEach(async () => {
      await app.listen({ transport: 'http', port: 0, maxRequestBodySize: 1024 });
      url = await app.getUrl();
      fetchHandler = app.createFetchHandler({ maxRequestBodySize: 1024 });
    });

    it.each(bad)('%s', async (_what, request) => {
      const node = await rawRequest(url, request);
      const response = await fetchHandler(new Request('http://127.0.0.1/mcp', { method: request.method ?? 'POST', headers: request.headers, body: request.body }));
      const web = { status: response.status, body: await response.text() };
      const code = (body: string) => (body ? (JSON.parse(body) as { error?: { code?: number } }).error?.code : undefined);
      expect({ status: web.status, code: code(web.body) }).toEqual({ status: node.status, code: code(node.body) });
      expect(web.status).toBeGreaterThanOrEqual(400);
    });
  });
});
