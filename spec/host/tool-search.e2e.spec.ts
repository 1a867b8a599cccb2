import 'reflect-metadata';
import {
  BootstrapError,
  FULL_TOOL_LIST,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Scopes,
  Tool,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type McpAuth,
  type McpMiddleware,
  type McpModuleOptions,
} from 'mcp-reflect';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { legacyRequest } from '../tasks/legacy-client';

/** Only `root` may see or call the tool this guards. */
class RootOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.auth?.subject === 'root';
  }
}

/** The tools/call names middleware saw. */
const calls: string[] = [];
const recorder: McpMiddleware = {
  onCallTool: (context, next) => {
    calls.push((context.params as { name: string }).name);
    return next();
  },
};

@Injectable()
class Catalogue {
  @Tool({ description: 'Weather forecast for a city, for the next days' })
  forecast(@Param() city: string, @Param('days', { type: 'integer', optional: true }) days?: number): string {
    return `${city}: sunny for ${days ?? 1} days`;
  }

  @Tool({ description: 'Severe weather alerts of a region' })
  weather_alerts(@Param() region: string): string {
    return `no alerts in ${region}`;
  }

  @Tool({ description: 'Converts an amount between two currencies' })
  convertCurrency(@Param() amount: number, @Param() from: string, @Param() to: string): string {
    return `${amount} ${from} in ${to}`;
  }

  @Tool({ description: 'Translates a text into another language' })
  translate(@Param() text: string, @Param() language: string): string {
    return `${text} (${language})`;
  }

  @Tool({ description: 'Shows how to use this server' })
  help(): string {
    return 'search, then call';
  }

  @Tool({ description: 'Deletes every weather record' })
  @UseGuards(RootOnly)
  delete_weather(): string {
    return 'deleted';
  }

  @Tool({ description: 'Weather radar images' })
  @Scopes('radar')
  radar(): string {
    return 'radar';
  }

  @Tool({ description: 'Builds a long weather report', task: 'required' })
  async report(): Promise<string> {
    return 'report';
  }
}

function searching(toolSearch: McpModuleOptions['toolSearch'] = { maxResults: 3, always: ['help'] }) {
  @Module({ imports: [McpModule.forRoot({ name: 'big', version: '1.0.0', toolSearch, middleware: [recorder], logger: { error() {}, warn() {} } as never })], providers: [Catalogue] })
  class Big {}
  return Big;
}

const names = (result: unknown) => ((result as { structuredContent: { tools: { name: string }[] } }).structuredContent.tools ?? []).map((t) => t.name);
const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe.each(['2025-11-25', '2026-07-28'] as const)('tool search (protocol %s)', (protocolVersion) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(searching(), { protocolVersion, auth: { subject: 'ada', scopes: ['radar'] } });
  });
  afterAll(() => client.close());
  beforeEach(() => calls.splice(0));

  it('lists the always tools, search_tools and call_tool; the full list on request; every tool still callable directly', async () => {
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(['help', 'search_tools', 'call_tool']);
    expect(listed[1]).toMatchObject({
      name: 'search_tools',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      annotations: { readOnlyHint: true },
    });
    const full = (await client.listTools({ _meta: { [FULL_TOOL_LIST]: true } })).tools;
    expect(full.map((t) => t.name)).toEqual(['forecast', 'weather_alerts', 'convertCurrency', 'translate', 'help', 'radar', 'report']);
    // Some tool runs as a task: call_tool may too, advertised as task tools are on this era (2026-07-28: by the extension, not per tool).
    expect(listed[2]).toMatchObject({ name: 'call_tool', inputSchema: { required: ['name'] } });
    const execution = (tool: object | undefined) => (tool as { execution?: unknown } | undefined)?.execution;
    expect(execution(listed[2])).toEqual(protocolVersion === '2025-11-25' ? { taskSupport: 'optional' } : execution(full.find((t) => t.name === 'report')));
    expect(text(await client.callTool({ name: 'translate', arguments: { text: 'hi', language: 'fr' } }))).toBe('hi (fr)');
  });

  it('ranks the tools the caller may see by the query’s words in their names and descriptions, at most maxResults, as tools/list describes them', async () => {
    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'weather forecast' } });
    // forecast has both words (one in its name), weather_alerts one in its name; delete_weather is guarded away.
    expect(names(found)).toEqual(['forecast', 'weather_alerts', 'radar']);
    const tools = (found as { structuredContent: { tools: unknown[] } }).structuredContent.tools;
    const full = (await client.listTools({ _meta: { [FULL_TOOL_LIST]: true } })).tools;
    expect(tools[0]).toEqual(full.find((t) => t.name === 'forecast'));
    expect(JSON.parse(text(found))).toEqual({ tools });
    // camelCase names are words too; a query matching nothing finds nothing.
    expect(names(await client.callTool({ name: 'search_tools', arguments: { query: 'currency' } }))).toEqual(['convertCurrency']);
    expect(names(await client.callTool({ name: 'search_tools', arguments: { query: 'quantum' } }))).toEqual([]);
    const invalid = await client.callTool({ name: 'search_tools', arguments: {} });
    expect(invalid).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments for tool search_tools: query: is required' }] });
  });

  it('runs call_tool as the call of the tool it names: middleware, validation, unknown names', async () => {
    expect(text(await client.callTool({ name: 'call_tool', arguments: { name: 'forecast', arguments: { city: 'Lyon', days: 2 } } }))).toBe('Lyon: sunny for 2 days');
    expect(calls).toEqual(['forecast']);
    const invalid = await client.callTool({ name: 'call_tool', arguments: { name: 'forecast', arguments: { days: 2 } } });
    expect(invalid).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments for tool forecast: city: is required' }] });
    await expect(client.callTool({ name: 'call_tool', arguments: { name: 'nowhere' } })).rejects.toThrow(/Unknown tool: nowhere/);
    expect(text(await client.callTool({ name: 'call_tool', arguments: {} }))).toBe('Invalid arguments for tool call_tool: name: is required');
    expect(text(await client.callTool({ name: 'call_tool', arguments: { name: 'call_tool' } }))).toBe("Invalid arguments for tool call_tool: name: 'call_tool' is one of the search tools; call it directly");
  });
});

describe('tool search and who is asking', () => {
  it('never finds nor calls through call_tool a tool the caller may not see, and finds it for one who may', async () => {
    const guest = await createTestClient(searching(), { auth: { subject: 'guest' } });
    const root = await createTestClient(searching(), { auth: { subject: 'root', scopes: ['radar'] } });
    try {
      expect(names(await guest.callTool({ name: 'search_tools', arguments: { query: 'delete weather radar' } }))).toEqual(['weather_alerts', 'forecast', 'report']);
      await expect(guest.callTool({ name: 'call_tool', arguments: { name: 'delete_weather' } })).rejects.toThrow(/Unknown tool: delete_weather/);
      // Without its scope, the call is refused naming it, as a direct call is.
      const refused = await guest.callTool({ name: 'call_tool', arguments: { name: 'radar' } });
      expect(refused).toMatchObject({ isError: true });
      expect(text(refused)).toMatch(/radar/);
      expect(names(await root.callTool({ name: 'search_tools', arguments: { query: 'delete weather radar' } }))).toEqual(['delete_weather', 'radar', 'weather_alerts']);
      expect(text(await root.callTool({ name: 'call_tool', arguments: { name: 'delete_weather' } }))).toBe('deleted');
    } finally {
      await guest.close();
      await root.close();
    }
  });

  it('runs the named tool as a task when the call asks for one (2025-11-25 task augmentation), and refuses it otherwise as a direct call is refused', async () => {
    const client = await createTestClient(searching());
    try {
      const created = await legacyRequest(client, 'tools/call', { name: 'call_tool', arguments: { name: 'report' }, task: { ttl: 60_000 } });
      expect(created.task).toMatchObject({ status: expect.stringMatching(/working|completed/) });
      const direct = await legacyRequest(client, 'tools/call', { name: 'report', arguments: {} }).catch((e: Error) => e);
      const wrapped = await legacyRequest(client, 'tools/call', { name: 'call_tool', arguments: { name: 'report' } }).catch((e: Error) => e);
      expect(String(wrapped)).toBe(String(direct));
      expect(String(wrapped)).toMatch(/runs only as a task/);
    } finally {
      await client.close();
    }
  });

  it('fails the bootstrap for a tool named like a search tool, and for options out of range', async () => {
    @Injectable()
    class Clash {
      @Tool()
      search_tools(): string {
        return 'mine';
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1', toolSearch: true })], providers: [Clash] })
    class App {}
    const error = (await McpFactory.create(App).catch((e: unknown) => e)) as BootstrapError;
    expect(error).toBeInstanceOf(BootstrapError);
    expect(error.message).toBe(
      "Cannot register tool 'search_tools' (Clash.search_tools): McpModule.forRoot({ toolSearch }) serves a tool of that name.\n" +
        "Fix: name the tool otherwise, e.g. @Tool({ name: 'search_tools_2' }), or transform its name (docs/composition.md#transforms).",
    );
    await expect(McpFactory.create(searching({ maxResults: 0 }))).rejects.toThrow(
      'Cannot use McpModule.forRoot({ toolSearch }): maxResults 0 is not a whole number from 1 to 100.\nFix: give the most tools one search returns, e.g. maxResults: 10.',
    );
  });
});

@Injectable()
class HttpTools {
  @Tool()
  @Scopes('radar')
  radar(): string {
    return 'radar';
  }

  @Tool()
  routed(@Param('region', { header: 'Region' }) region: string): string {
    return `routed ${region}`;
  }
}

describe('tool search over HTTP', () => {
  it('asks for the scopes of the tool call_tool names (step-up 403), and no Mcp-Param header of it (2026-07-28)', async () => {
    // Catalogue (above) belongs to the other applications of this file.
    @Module({ imports: [McpModule.forRoot({ name: 'http-search', version: '1.0.0', toolSearch: true, warnings: { unprovidedComponents: false } })], providers: [HttpTools] })
    class HttpSearch {}
    const app = await McpFactory.create(HttpSearch);
    const clients: Client[] = [];
    try {
      await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, auth: { issuer: 'https://as.example.com', verify: async (token) => verified(token, await app.getUrl()) } });
      const connect = async (token: string) => {
        const client = new Client({ name: 'search', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
        clients.push(client);
        await client.connect(new StreamableHTTPClientTransport(new URL(await app.getUrl()), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
        return client;
      };
      const plain = await connect('plain');
      const granted = await connect('radar');
      await expect(plain.callTool({ name: 'call_tool', arguments: { name: 'radar' } })).rejects.toThrow(/403|insufficient/i);
      expect(text(await granted.callTool({ name: 'call_tool', arguments: { name: 'radar' } }))).toBe('radar');
      // The request names call_tool, whose schema mirrors nothing into headers: the wrapped call is not refused for them.
      expect(text(await plain.callTool({ name: 'call_tool', arguments: { name: 'routed', arguments: { region: 'eu' } } }))).toBe('routed eu');
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await app.close();
    }
  });
});

/** A verifier of our own: the token is the subject; `radar` is granted the scope radar. */
function verified(token: string, audience: string): McpAuth {
  const claims = { sub: token, aud: audience, iss: 'https://as.example.com', exp: Math.floor(Date.now() / 1000) + 60 };
  return { subject: token, clientId: 'cli', scopes: token === 'radar' ? ['radar'] : [], expiresAt: claims.exp, issuer: claims.iss, claims, token };
}
