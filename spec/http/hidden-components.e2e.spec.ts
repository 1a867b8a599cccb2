import 'reflect-metadata';
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
import { initializeBody, JSON_AND_SSE, rawRequest } from '../support/http-helpers';

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

