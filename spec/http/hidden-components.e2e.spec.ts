import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type AuthInfo, type McpHttpHandler } from '@modelcontextprotocol/server';
import {
  Complete,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  Scopes,
  Tool,
  UseGuards,
  userMessage,
  type AuthOptions,
  type CanActivate,
  type ExecutionContext,
  type McpApplication,
  type McpAuth,
} from 'mcp-reflect';
import type { HttpServing } from '../../lib/transports/http-serving';
import { readBody } from '../../lib/server/message-reading';
import { initializeBody, JSON_AND_SSE, messagesOf, rawRequest } from '../support/http-helpers';
import { Arrivals } from '../support/waiting';

class AdminOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return (context.auth?.claims.roles as string[] | undefined)?.includes('admin') === true;
  }
}

/** Lets a call through with `pass: true` and is false in every list: a tool callable by who knows it, never listed. */
class PassGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.phase === 'call' && context.switchToRpc().getData<{ pass?: boolean }>()?.pass === true;
  }
}

/** Reads what a Caller carries besides the identity: a header and the client's name. */
class RedTeamConsole implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.context.headers?.['x-team'] === 'red' && context.context.client.name === 'ops-console';
  }
}

@Injectable()
class Ops {
  @Tool() @UseGuards(AdminOnly) deploy(@Param('region', { header: 'Region' }) region: string): string {
    return `deployed to ${region}`;
  }

  @Tool() @UseGuards(PassGuard) hatch(@Param('region', { header: 'Region' }) region: string, @Param() pass: boolean): string {
    return `hatched in ${region} (${pass})`;
  }

  @Tool() route(@Param('region', { header: 'Region' }) region: string): string {
    return `routed to ${region}`;
  }

  @Tool() @Scopes('ops:admin') drain(@Param('region', { header: 'Region' }) region: string): string {
    return `drained ${region}`;
  }

  @Tool() @UseGuards(RedTeamConsole) redTeam(): string {
    return 'red';
  }

  @Resource('ops://secrets') @Scopes('ops:admin') secrets(): string {
    return 'secrets';
  }

  @Resource('ops://plans') @UseGuards(AdminOnly) plans(): string {
    return 'plans';
  }

  @Resource('ops://status') status(): string {
    return 'green';
  }

  @Prompt() @UseGuards(AdminOnly) brief(@Param() topic: string) {
    return [userMessage(`Brief on ${topic}`)];
  }

  @Prompt() hello(@Param() topic: string) {
    return [userMessage(`Hello ${topic}`)];
  }

  @Complete({ prompt: 'brief', argument: 'topic' }) briefTopics(): string[] {
    return ['the outage'];
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'ops', version: '1.0.0', logger: { error() {}, warn() {} } })], providers: [Ops] })
class OpsModule {}

/** `eve`: no scope, no role; `ada`: ops:admin and the admin role. */
const IDENTITIES: Record<string, { scopes: string[]; roles: string[] }> = { eve: { scopes: [], roles: [] }, ada: { scopes: ['ops:admin'], roles: ['admin'] } };

const verifier = (resource: () => string): AuthOptions['verify'] => async (token: string): Promise<McpAuth> => {
  const who = IDENTITIES[token] ?? IDENTITIES.eve;
  const claims = { sub: token, aud: resource(), iss: 'https://as.example.com', exp: Math.floor(Date.now() / 1000) + 60, scope: who.scopes.join(' '), roles: who.roles };
  return { subject: token, clientId: 'cli', scopes: who.scopes, expiresAt: claims.exp, issuer: claims.iss, claims, token };
};

const servingOf = (app: McpApplication): HttpServing => (app as unknown as { parts: { http: HttpServing } }).parts.http;

/** One raw 2025-11-25 session with a bearer token; `send` answers with the text of the response's JSON-RPC message. */
async function legacySession(url: string, token: string) {
  const auth = { ...JSON_AND_SSE, authorization: `Bearer ${token}` };
  const init = await rawRequest(url, { headers: auth, body: initializeBody() });
  const headers = { ...auth, 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-11-25' };
  await rawRequest(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  return {
    async send(method: string, params: Record<string, unknown>): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
      const response = await rawRequest(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method, params }) });
      const data = response.body.split('\n').find((line) => line.startsWith('data: {'));
      return { status: response.status, text: data ? data.slice(6) : response.body, headers: response.headers };
    },
  };
}

describe('hidden components over HTTP', () => {
  const apps: McpApplication[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });
  const serve = async (auth: Partial<AuthOptions>) => {
    const app = await McpFactory.create(OpsModule);
    apps.push(app);
    let url = '';
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, auth: { issuer: 'https://as.example.com', verify: verifier(() => url), ...auth } });
    url = await app.getUrl();
    return url;
  };

  it("answers in MCP (insufficientScope: 'error') with the very bytes a missing component gets, the name aside", async () => {
    const url = await serve({ insufficientScope: 'error' });
    const eve = await legacySession(url, 'eve');
    const pairs: [string, (name: string) => Record<string, unknown>, string, string][] = [
      ['tools/call', (name) => ({ name, arguments: { region: 'eu' } }), 'deploy', 'nothing'],
      ['resources/read', (uri) => ({ uri }), 'ops://plans', 'ops://nothing'],
      ['resources/subscribe', (uri) => ({ uri }), 'ops://plans', 'ops://nothing'],
      ['resources/subscribe', (uri) => ({ uri }), 'ops://secrets', 'ops://nothing'],
      ['resources/unsubscribe', (uri) => ({ uri }), 'ops://secrets', 'ops://nothing'],
      ['prompts/get', (name) => ({ name, arguments: { topic: 'x' } }), 'brief', 'nothing'],
      ['completion/complete', (name) => ({ ref: { type: 'ref/prompt', name }, argument: { name: 'topic', value: '' } }), 'brief', 'nothing'],
    ];
    for (const [method, params, hidden, missing] of pairs) {
      const asked = await eve.send(method, params(hidden));
      const unknown = await eve.send(method, params(missing));
      expect({ method, status: asked.status, text: asked.text.split(hidden).join(missing) }).toEqual({ method, status: unknown.status, text: unknown.text });
    }
    expect(JSON.parse((await eve.send('prompts/get', { name: 'nothing', arguments: { topic: 'x' } })).text).error.message).toBe('Unknown prompt: nothing. Available prompts: hello');
  });

  it('with step-up (the default), answers a subscription to a resource whose scopes the token lacks 403 insufficient_scope, as a read', async () => {
    const url = await serve({});
    const eve = await legacySession(url, 'eve');
    for (const method of ['resources/read', 'resources/subscribe']) {
      const refused = await eve.send(method, { uri: 'ops://secrets' });
      expect(refused.status).toBe(403);
      expect(refused.headers['www-authenticate']).toContain('error="insufficient_scope", error_description="This request needs the scope ops:admin."');
    }
    const ada = await legacySession(url, 'ada');
    expect(JSON.parse((await ada.send('resources/subscribe', { uri: 'ops://secrets' })).text)).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
  });
});

describe('HttpServing.toolVisible (for checks made before dispatch, such as the Mcp-Param header check)', () => {
  let app: McpApplication;
  let factory: HttpServing;
  const identity = (name: string): McpAuth => ({ subject: name, clientId: 'cli', scopes: IDENTITIES[name].scopes, claims: { sub: name, roles: IDENTITIES[name].roles }, token: name });
  beforeAll(async () => {
    app = await McpFactory.create(OpsModule);
    factory = servingOf(app);
  });
  afterAll(() => app.close());

  it('is true for a tool the caller’s tools/list shows, and false for any other, without running the tool', async () => {
    expect(await factory.toolVisible('route')).toBe(true);
    expect(await factory.toolVisible('nothing')).toBe(false);
    expect(await factory.toolVisible('deploy', { auth: identity('eve') })).toBe(false);
    expect(await factory.toolVisible('deploy', { auth: identity('ada') })).toBe(true);
    expect(await factory.toolVisible('drain', { auth: identity('eve') })).toBe(false);
    expect(await factory.toolVisible('drain', { auth: identity('ada') })).toBe(true);
    // Hidden from every list (its guard only says yes to a call): not visible, so the call goes on to be answered.
    expect(await factory.toolVisible('hatch', { auth: identity('ada') })).toBe(false);
    app.tools.disable('route');
    expect(await factory.toolVisible('route')).toBe(false);
    app.tools.enable('route');
  });

  it('gives guards the headers and the client of the HTTP request (callerOf)', async () => {
    const body = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'redTeam', _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'ops-console', version: '1' } } } };
    const request = (team: string) => new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'x-team': team } });
    const authInfo: AuthInfo = { token: 'ada', clientId: 'cli', scopes: ['ops:admin'], extra: { sub: 'ada', roles: ['admin'] } };
    const caller = factory.callerOf(request('red'), authInfo, readBody(body).single);
    expect(caller).toMatchObject({ requestId: 4, auth: { subject: 'ada', scopes: ['ops:admin'] }, meta: body.params._meta });
    expect(await factory.toolVisible('redTeam', caller)).toBe(true);
    expect(await factory.toolVisible('deploy', caller)).toBe(true);
    expect(await factory.toolVisible('redTeam', factory.callerOf(request('blue'), authInfo, readBody(body).single))).toBe(false);
    expect(await factory.toolVisible('redTeam', factory.callerOf(request('red'), authInfo, readBody({ ...body, params: { name: 'redTeam' } }).single))).toBe(false);
  });
});

/**
 * The SDK's own 2026-07-28 handler (`createMcpHandler`) serving the application's factory, mounted on a real
 * socket: what HttpEndpoint wraps. Tokens are read as our own middleware would (`req.auth`).
 */
async function mountSdkHandler(app: McpApplication, withBus: boolean) {
  const factory = servingOf(app);
  const bus = withBus ? factory.listenBus() : undefined;
  const mcp: McpHttpHandler = createMcpHandler(() => factory.servers.create(), { legacy: 'reject', ...(bus ? { bus } : {}) });
  const unpublish = factory.hub.addPublisher(mcp.notify);
  const node = toNodeHandler({
    fetch: (request, options) => (bus ? bus.as(factory.callerOf(request, options?.authInfo), () => mcp.fetch(request, options)) : mcp.fetch(request, options)),
  });
  const server: Server = createServer((req, res) => {
    const token = req.headers.authorization?.replace(/^Bearer /, '');
    if (token) Object.assign(req, { auth: { token, clientId: 'cli', scopes: IDENTITIES[token].scopes, extra: { sub: token, roles: IDENTITIES[token].roles } } satisfies AuthInfo });
    void node(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return {
    url,
    close: async () => {
      unpublish();
      await mcp.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('HttpServing.listenBus: 2026-07-28 listen streams over HTTP hear only of what their caller may see', () => {
  it('delivers notifications/resources/updated of a scoped or guarded resource only to a stream whose caller may see it', async () => {
    const app = await McpFactory.create(OpsModule);
    const mounted = await mountSdkHandler(app, true);
    const clients: Client[] = [];
    const listen = async (token: string) => {
      const client = new Client({ name: token, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(mounted.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      clients.push(client);
      const heard = new Arrivals<string>();
      client.setNotificationHandler('notifications/resources/updated', (n) => heard.push(n.params.uri));
      await client.listen({ resourceSubscriptions: ['ops://secrets', 'ops://plans', 'ops://status'] });
      return heard;
    };
    try {
      const eve = await listen('eve');
      const ada = await listen('ada');
      for (const uri of ['ops://secrets', 'ops://plans', 'ops://status']) await app.notifyResourceUpdated(uri);
      expect(await ada.until(3)).toEqual(['ops://secrets', 'ops://plans', 'ops://status']);
      await eve.until(1);
      // One more update on eve's stream: once it arrives, anything sent to that stream before it has arrived.
      await app.notifyResourceUpdated('ops://status');
      await eve.until(2);
      expect(eve.items).toEqual(['ops://status', 'ops://status']);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await mounted.close();
      await app.close();
    }
  });
});

describe('a 2026-07-28 tools/call whose Mcp-Param headers disagree never runs, and names no header of a hidden tool', () => {
  let app: McpApplication;
  let mounted: Awaited<ReturnType<typeof mountSdkHandler>>;
  beforeAll(async () => {
    app = await McpFactory.create(OpsModule);
    // The SDK's handler alone, with no header check before dispatch: what reaches the tools/call handler.
    mounted = await mountSdkHandler(app, false);
  });
  afterAll(async () => {
    await mounted.close();
    await app.close();
  });

  const call = async (token: string, name: string, args: Record<string, unknown>, region?: string) => {
    const body = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    const headers = { ...JSON_AND_SSE, authorization: `Bearer ${token}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name, ...(region ? { 'mcp-param-region': region } : {}) };
    const response = await rawRequest(mounted.url, { headers, body: JSON.stringify(body) });
    const message = messagesOf(response.body).find((m) => m.id === 3);
    return { status: response.status, error: message?.error, result: message?.result && { content: message.result.content, isError: message.result.isError } };
  };

  it('answers a hidden tool as a missing one, a scope-lacking one with its refusal, a visible one -32020', async () => {
    const missing = await call('eve', 'nothing', { region: 'eu' }, 'us');
    expect(missing.error).toMatchObject({ code: -32602, message: 'Unknown tool: nothing' });
    // A guard that says no to lists: not run, answered as unknown.
    expect(await call('eve', 'hatch', { region: 'eu', pass: true }, 'us')).toEqual({ ...missing, error: { ...missing.error, message: 'Unknown tool: hatch' } });
    expect(await call('eve', 'deploy', { region: 'eu' })).toEqual({ ...missing, error: { ...missing.error, message: 'Unknown tool: deploy' } });
    expect((await call('eve', 'drain', { region: 'eu' }, 'us')).result).toEqual({
      content: [{ type: 'text', text: "Insufficient scope: the tool 'drain' needs the scope ops:admin, which the access token does not grant. Ask the authorization server for it." }],
      isError: true,
    });
    expect((await call('eve', 'route', { region: 'eu' }, 'us')).error).toEqual({
      code: -32020,
      message: 'Bad Request: the request headers and body disagree: the Mcp-Param-Region header says "us" but the body carries region="eu".',
      data: { mismatch: { header: 'Mcp-Param-Region', body: 'the Mcp-Param-Region header says "us" but the body carries region="eu"' } },
    });
    // With the headers right, each is served as always.
    expect((await call('eve', 'hatch', { region: 'eu', pass: true }, 'eu')).result?.content).toEqual([{ type: 'text', text: 'hatched in eu (true)' }]);
    expect((await call('eve', 'route', { region: 'eu' }, 'eu')).result?.content).toEqual([{ type: 'text', text: 'routed to eu' }]);
    expect((await call('ada', 'deploy', { region: 'eu' }, 'eu')).result?.content).toEqual([{ type: 'text', text: 'deployed to eu' }]);
  });
});
