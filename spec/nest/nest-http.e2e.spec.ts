import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, type CanActivate, type ExecutionContext, type INestApplication, type NestMiddleware } from '@nestjs/common';
import { appModule, listenNest } from './fixtures';

/**
 * Streamable HTTP on the Nest application's own server (Express and Fastify): the endpoint is a route of the application,
 * so the global prefix, Nest middleware and CORS apply to it as to controllers, and it shuts down with Nest.
 */
const text = (result: unknown) => ((result as { content: { text: string }[] }).content ?? [])[0]?.text;

/** An HTTP guard in front of the endpoint, as Passport's would be: it sets req.user from the API key. */
@Injectable()
class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string>; user?: unknown }>();
    if (req.headers['x-api-key'] !== 'secret-key') return false;
    req.user = { id: 'ada', roles: ['admin'] };
    return true;
  }
}

type Platform = 'express' | 'fastify';
let platform: Platform = 'express';

function serve(prepare: (app: INestApplication) => void = () => {}, http: Record<string, unknown> = {}) {
  return listenNest(appModule({ name: 'nest-http', version: '1.0.0', http }), platform, prepare);
}

async function connect(url: string, protocolVersion?: '2026-07-28', headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'nest-http-spec', version: '1.0.0' }, protocolVersion ? { versionNegotiation: { mode: { pin: protocolVersion } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe.each<Platform>(['express', 'fastify'])('mcp-reflect/nest over HTTP on the Nest application (%s)', (name) => {
  let app: INestApplication | undefined;
  beforeAll(() => {
    platform = name;
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('serves /mcp beside the REST controllers, sharing their services, in both protocol eras', async () => {
    const served = await serve();
    app = served.app;
    expect(app.getHttpAdapter().getType()).toBe(name);
    for (const era of [undefined, '2026-07-28'] as const) {
      const client = await connect(`${served.base}/mcp`, era);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('greet');
      expect(text(await client.callTool({ name: 'greet', arguments: { name: era ?? 'legacy' } }))).toBe(`Hello, ${era ?? 'legacy'}`);
      await client.close();
    }
    const rest = await fetch(`${served.base}/greetings`);
    expect(await rest.json()).toEqual(['legacy', '2026-07-28']); // the one service the tools used
  });

  it('applies the global prefix, a path of its own and Nest middleware to the endpoint', async () => {
    const seen: string[] = [];
    const served = await serve(
      (nest) => {
        nest.setGlobalPrefix('api');
        const middleware: NestMiddleware = { use: (req: { url: string }, _res: unknown, next: () => void) => (seen.push(req.url), next()) };
        nest.use(middleware.use);
      },
      { path: '/assistant' },
    );
    app = served.app;
    const client = await connect(`${served.base}/api/assistant`);
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'prefixed' } }))).toBe('Hello, prefixed');
    await client.close();
    expect(seen.some((url) => url.startsWith('/api/assistant'))).toBe(true);
    expect((await fetch(`${served.base}/mcp`, { method: 'POST' })).status).toBe(404);
  });

  it("applies Nest's CORS to the endpoint: preflight and the headers of answers", async () => {
    const served = await serve((nest) => nest.enableCors({ origin: 'https://app.example', exposedHeaders: ['mcp-session-id'] }));
    app = served.app;
    const preflight = await fetch(`${served.base}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,mcp-protocol-version' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const answer = await fetch(`${served.base}/mcp`, {
      method: 'POST',
      headers: { origin: 'https://app.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(answer.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    expect(answer.headers.get('mcp-session-id')).toBeTruthy();
    await answer.body?.cancel();
  });

  it('answers bad requests with the endpoint\'s own errors, after Nest\'s JSON parser', async () => {
    const served = await serve();
    app = served.app;
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${served.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
    // A body Nest's parser refuses is answered by Nest (400), before the endpoint sees it; nothing leaks.
    const malformed = await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"');
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).not.toMatch(/at .*\.js:\d+/);
    // What the parser accepts, the endpoint judges: a batch that is not JSON-RPC, a wrong Accept header.
    const batch = await post('[1, 2]');
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const accept = await post(JSON.stringify(initialize), { accept: 'text/html' });
    expect(accept.status).toBe(406);
    expect(await accept.json()).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('Accept') } });
  });

  it('takes the identity a Nest HTTP guard established: it becomes ctx.auth, for guards and tools', async () => {
    const served = await serve(() => {}, {
      guards: [ApiKeyGuard],
      identity: (req: { user?: { id: string; roles: string[] } }) => (req.user ? { subject: req.user.id, scopes: req.user.roles } : undefined),
    });
    app = served.app;
    const refused = await fetch(`${served.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(403); // Nest's guard answered; MCP never saw it
    for (const era of [undefined, '2026-07-28'] as const) {
      const client = await connect(`${served.base}/mcp`, era, { 'x-api-key': 'secret-key' });
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('secret'); // the roles guard reads ctx.auth
      expect(text(await client.callTool({ name: 'secret', arguments: {} }))).toBe('the secret');
      expect(text(await client.callTool({ name: 'whoami', arguments: {} }))).toMatch(/^mcp #\d+ ada /);
      await client.close();
    }
  });

  it('ends its sessions when Nest closes', async () => {
    const served = await serve();
    const client = await connect(`${served.base}/mcp`);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await served.app.close();
    await expect(client.listTools()).rejects.toThrow();
    await client.close().catch(() => {});
  });
});
