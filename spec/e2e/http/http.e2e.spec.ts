import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { IsString } from 'class-validator';
import { Context, Ctx, Injectable, McpApplication, McpFactory, McpModule, Module, Param, Resource, Tool } from 'mcp-reflect';
import { JSON_AND_SSE, initializeBody, messagesOf, openSession, rawRequest, serverOpensGetStream } from '../../support/http-helpers';
import { Arrivals, within } from '../../support/waiting';

class Name {
  @IsString() name!: string;
}

@Injectable()
class HttpTools {
  @Tool()
  async add(@Param() a: number, @Param() b: number, @Ctx() ctx: Context): Promise<string> {
    await ctx.reportProgress(1, 2, 'half');
    await ctx.log.info('adding');
    return `${a + b} session=${ctx.sessionId ?? 'none'} host=${ctx.headers?.host ? 'yes' : 'no'}`;
  }

  @Tool()
  async greet(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('Your name?', Name);
    return answer.action === 'accept' ? `Hello ${answer.content.name}` : answer.action;
  }

  @Resource('config://app')
  config(): string {
    return 'debug=false';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'http-app', version: '1.0.0' })], providers: [HttpTools] })
class HttpModule {}

async function connect(url: string, era?: '2026-07-28', capabilities = {}) {
  const client = new Client(
    { name: 'http-spec', version: '1.0.0' },
    { capabilities, ...(era ? { versionNegotiation: { mode: { pin: era } } } : {}) },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

describe('Streamable HTTP (stateful, real sockets on 127.0.0.1)', () => {
  let app: McpApplication;
  let url: string;

  beforeAll(async () => {
    app = await McpFactory.create(HttpModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, path: '/mcp' });
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it('binds the port the OS chose and reports the real URL', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(url).not.toContain(':0/');
  });

  it('refuses to listen on a port in use, instead of reporting success', async () => {
    const other = await McpFactory.create(HttpModule);
    const port = Number(new URL(url).port);
    await expect(other.listen({ transport: 'http', host: '127.0.0.1', port })).rejects.toMatchObject({
      code: 'LISTEN_FAILED',
      message: `Cannot listen on http://127.0.0.1:${port}: the port is in use (EADDRINUSE).\nFix: stop the process that holds it, or listen on another port (port: 0 picks a free one).`,
      cause: { code: 'EADDRINUSE' },
    });
    await other.close();
  });

  it.each([undefined, '2026-07-28'] as const)('serves an SDK client with progress and logs before the result (era %s)', async (era) => {
    const { client, transport } = await connect(url, era);
    try {
      const events: string[] = [];
      client.setNotificationHandler('notifications/message', () => void events.push('log'));
      if (!era) {
        expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
        await client.setLoggingLevel('info');
      }
      const result = await client.callTool(
        { name: 'add', arguments: { a: 2, b: 3 }, ...(era ? { _meta: { 'io.modelcontextprotocol/logLevel': 'info' } } : {}) },
        { onprogress: () => void events.push('progress') },
      );
      events.push('result');
      expect((result.content as { text: string }[])[0].text).toBe(`5 session=${era ? 'none' : transport.sessionId} host=yes`);
      expect(events.indexOf('progress')).toBeGreaterThanOrEqual(0);
      expect(events.indexOf('progress')).toBeLessThan(events.indexOf('result'));
      if (!era) expect(events.indexOf('log')).toBeLessThan(events.indexOf('result'));
    } finally {
      await client.close();
    }
  });

  it.each([undefined, '2026-07-28'] as const)('elicits over HTTP (era %s)', async (era) => {
    const { client } = await connect(url, era, { elicitation: {} });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept' as const, content: { name: 'Ada' } }));
    try {
      expect((await client.callTool({ name: 'greet', arguments: {} })).content).toEqual([{ type: 'text', text: 'Hello Ada' }]);
    } finally {
      await client.close();
    }
  });

  it('answers every malformed request with the right status and a JSON-RPC body, never a stack trace', async () => {
    const cases: [string, Parameters<typeof rawRequest>[1], number, number?][] = [
      ['foreign Host', { headers: { ...JSON_AND_SSE, host: 'evil.example.com' }, body: initializeBody() }, 403],
      ['foreign Origin', { headers: { ...JSON_AND_SSE, origin: 'http://evil.example.com' }, body: initializeBody() }, 403],
      ['malformed JSON', { headers: JSON_AND_SSE, body: '{"jsonrpc":' }, 400, -32700],
      ['wrong Content-Type', { headers: { ...JSON_AND_SSE, 'content-type': 'text/plain' }, body: initializeBody() }, 415],
      ['Accept without SSE', { headers: { 'content-type': 'application/json', accept: 'application/json' }, body: initializeBody() }, 406],
      ['no session header', { headers: JSON_AND_SSE, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) }, 400],
      [
        'unknown session',
        { headers: { ...JSON_AND_SSE, 'mcp-session-id': 'not-a-session' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) },
        404,
      ],
    ];
    for (const [name, request, status, code] of cases) {
      const response = await rawRequest(url, request);
      expect({ name, status: response.status }).toEqual({ name, status });
      const body = JSON.parse(response.body);
      expect(body.jsonrpc).toBe('2.0');
      if (code) expect(body.error.code).toBe(code);
      expect(response.body).not.toMatch(/\bat .+\(.+:\d+:\d+\)/); // no stack frames
    }
  });

  it('rejects an unsupported MCP-Protocol-Version and accepts the 2025-03-26 header on a 2025-11-25 session', async () => {
    const session = await openSession(url);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    const bad = await rawRequest(url, { headers: { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' }, body: list });
    expect(bad.status).toBe(400);
    const old = await rawRequest(url, { headers: { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' }, body: list });
    expect(old.status).toBe(200);
    expect(messagesOf(old.body)[0].result.tools.map((t: { name: string }) => t.name)).toEqual(['add', 'greet']);
  });

  it('ends a session on DELETE; the id is then unknown (404)', async () => {
    const session = await openSession(url);
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    expect((await rawRequest(url, { method: 'DELETE', headers })).status).toBe(200);
    const after = await rawRequest(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) });
    expect(after.status).toBe(404);
  });

  it('answers GET /healthz and 404 elsewhere', async () => {
    const health = await rawRequest(url.replace('/mcp', '/healthz'), { method: 'GET' });
    expect([health.status, JSON.parse(health.body)]).toEqual([200, { status: 'ok' }]);
    expect((await rawRequest(url.replace('/mcp', '/other'), { method: 'GET' })).status).toBe(404);
  });
});

describe('change notifications over HTTP', () => {
  it.each([undefined, '2026-07-28'] as const)('tell listening clients about catalogue and resource changes (era %s)', async (era) => {
    const app = await McpFactory.create(HttpModule);
    await app.listen({ transport: 'http', port: 0 });
    const stream = serverOpensGetStream();
    const { client } = await connect(await app.getUrl(), era);
    const seen = new Arrivals<string>();
    client.setNotificationHandler('notifications/tools/list_changed', () => seen.push('tools'));
    client.setNotificationHandler('notifications/resources/updated', (n) => seen.push(`updated ${n.params.uri}`));
    try {
      if (era) await client.listen({ toolsListChanged: true, resourceSubscriptions: ['config://app'] });
      else {
        await client.subscribeResource({ uri: 'config://app' });
        await within(stream.opened, 'the standing GET stream to open'); // 2025: the notifications travel on it
      }
      app.tools.disable('greet');
      await app.notifyResourceUpdated('config://app');
      expect(await seen.until(2)).toEqual(['tools', 'updated config://app']);
      // Nothing more: a later change, on the same stream, arrives right after them.
      app.tools.enable('greet');
      expect(await seen.until(3)).toEqual(['tools', 'updated config://app', 'tools']);
    } finally {
      stream.restore();
      await client.close();
      await app.close();
    }
  });
});
