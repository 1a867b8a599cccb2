import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  Context,
  Ctx,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceTemplate,
  TimingInterceptor,
  Tool,
  ToolError,
  ToolResult,
  UseGuards,
  text,
  type ExecutionContext,
  type TimingEntry,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { answer } from '../../support/clients';
import { Arrivals } from '../../support/waiting';

@Injectable()
class Weather {
  @Tool()
  forecast(@Param() city: string): string {
    return `Sunny in ${city}`;
  }

  @Tool()
  outage(@Param() city: string): ToolResult {
    return new ToolResult({ content: [text(`No data for ${city}`)], isError: true });
  }

  @Tool()
  refuse(@Param() city: string): string {
    throw new ToolError(`Unknown city ${city}`);
  }

  @Tool({ timeout: 50 })
  async stuck(@Ctx() ctx: Context): Promise<string> {
    // Waits for the deadline: the signal aborts, and the method gives up.
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    throw ctx.signal.reason;
  }

  @Resource('weather://stations')
  stations(): string {
    return 'Orly, Roissy';
  }

  @ResourceTemplate('weather://city/{city}')
  city(@Param() city: string): string {
    return `Station of ${city}`;
  }

  @Prompt()
  brief(@Param() city: string): string {
    return `Brief me on ${city}`;
  }
}

const secret = 's3cr3t-value';

describe('TimingInterceptor as an interceptor', () => {
  const lines = new Arrivals<TimingEntry>();
  let client: TestClient;

  @Module({
    imports: [McpModule.forRoot({ name: 'timing', version: '1.0.0', logger: { error() {}, warn() {} }, interceptors: [new TimingInterceptor({ sink: (e) => lines.push(e) })] })],
    providers: [Weather],
  })
  class TimingModule {}

  beforeAll(async () => {
    client = await createTestClient(TimingModule);
  });
  afterAll(() => client.close());
  beforeEach(() => lines.items.splice(0));

  /** The lines without their duration, after checking that each has a real one. */
  const logged = () =>
    lines.items.map(({ durationMs, ...rest }) => {
      expect(typeof durationMs).toBe('number');
      expect(durationMs).toBeGreaterThanOrEqual(0);
      return rest;
    });

  it('logs one line per tool call, with the outcome and no argument values', async () => {
    expect(answer(await client.callTool({ name: 'forecast', arguments: { city: secret } }))).toEqual({ text: `Sunny in ${secret}`, isError: false });
    await client.callTool({ name: 'outage', arguments: { city: secret } });
    await client.callTool({ name: 'refuse', arguments: { city: secret } });
    await client.callTool({ name: 'forecast', arguments: { city: 42, extra: secret } });
    await client.callTool({ name: 'forecast', arguments: {} });
    expect(logged()).toEqual([
      { method: 'tools/call', kind: 'tool', name: 'forecast', outcome: 'ok' },
      { method: 'tools/call', kind: 'tool', name: 'outage', outcome: 'error' },
      { method: 'tools/call', kind: 'tool', name: 'refuse', outcome: 'error', error: 'ToolError' },
      { method: 'tools/call', kind: 'tool', name: 'forecast', outcome: 'ok' }, // 42 is coerced to '42', extra dropped
      { method: 'tools/call', kind: 'tool', name: 'forecast', outcome: 'invalid', error: 'InvalidArgumentsError' },
    ]);
    expect(JSON.stringify(lines.items)).not.toContain(secret);
  });

  it('logs resources, templates and prompts with their kind', async () => {
    await client.readResource({ uri: 'weather://stations' });
    await client.readResource({ uri: 'weather://city/Lyon' });
    await client.getPrompt({ name: 'brief', arguments: { city: 'Lyon' } });
    expect(logged()).toEqual([
      { method: 'resources/read', kind: 'resource', name: 'stations', outcome: 'ok' },
      { method: 'resources/read', kind: 'resource-template', name: 'city', outcome: 'ok' },
      { method: 'prompts/get', kind: 'prompt', name: 'brief', outcome: 'ok' },
    ]);
  });

  it('says cancelled when the call failed after its deadline aborted it', async () => {
    const result = await client.callTool({ name: 'stuck', arguments: {} });
    expect(answer(result)).toEqual({ text: "Tool 'stuck' timed out after 50 ms", isError: true });
    // The method gives up after the answer was sent: its line follows.
    await lines.until(1);
    expect(logged()).toEqual([{ method: 'tools/call', kind: 'tool', name: 'stuck', outcome: 'cancelled', error: 'TimeoutError' }]);
  });
});

describe('TimingInterceptor options', () => {
  it('adds the arguments only when asked, cut at maxArgumentChars', async () => {
    const lines: TimingEntry[] = [];
    @Module({
      imports: [
        McpModule.forRoot({
          name: 'timing-args',
          version: '1.0.0',
          interceptors: [new TimingInterceptor({ logArguments: true, maxArgumentChars: 20, sink: (e) => lines.push(e) })],
        }),
      ],
      providers: [Weather],
    })
    class ArgsModule {}
    const client = await createTestClient(ArgsModule);
    try {
      await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } });
      await client.callTool({ name: 'forecast', arguments: { city: 'Saint-Remy-de-Provence' } });
    } finally {
      await client.close();
    }
    expect(lines.map((l) => l.arguments)).toEqual([{ city: 'Lyon' }, '{"city":"Saint-Remy-…']);
  });

  it('rejects a negative maxArgumentChars', () => {
    expect(() => new TimingInterceptor({ maxArgumentChars: -1 })).toThrow(
      "Cannot create TimingInterceptor: the option 'maxArgumentChars' must be an integer of at least 0, got -1.\n" +
        'Fix: pass it, e.g. new TimingInterceptor({ logArguments: true, maxArgumentChars: 2000 }).',
    );
  });
});

/** Refuses the tool 'hidden' to everyone: calls are answered as an unknown tool. */
class HideGuard {
  canActivate(context: ExecutionContext): boolean {
    return context.phase === 'list' ? false : context.name !== 'hidden';
  }
}

@Injectable()
class Guarded {
  @UseGuards(HideGuard)
  @Tool()
  hidden(): string {
    return 'never';
  }
}

describe('TimingInterceptor as middleware (a class built by the container, default sink)', () => {
  let client: TestClient;
  let stderr: jest.SpyInstance;
  let stdout: jest.SpyInstance;

  @Module({
    imports: [McpModule.forRoot({ name: 'timing-mw', version: '1.0.0', middleware: [TimingInterceptor] })],
    providers: [Weather, Guarded],
  })
  class MiddlewareModule {}

  beforeAll(async () => {
    client = await createTestClient(MiddlewareModule);
  });
  afterAll(() => client.close());
  beforeEach(() => {
    stderr = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    stdout = jest.spyOn(process.stdout, 'write');
  });
  afterEach(() => {
    stderr.mockRestore();
    stdout.mockRestore();
  });

  /** The JSON lines written to stderr, without their duration. */
  const written = () =>
    stderr.mock.calls.map(([line]) => {
      expect(typeof line).toBe('string');
      const { durationMs, ...rest } = JSON.parse(line as string);
      expect(typeof durationMs).toBe('number');
      return rest;
    });

  it('logs lists and every kind of request as JSON lines on stderr, never stdout', async () => {
    await client.listTools();
    await client.listResources();
    await client.listResourceTemplates();
    await client.listPrompts();
    await client.callTool({ name: 'forecast', arguments: { city: secret } });
    await client.readResource({ uri: 'weather://city/Lyon' });
    await client.getPrompt({ name: 'brief', arguments: { city: 'Lyon' } });
    expect(written()).toEqual([
      { method: 'tools/list', outcome: 'ok' },
      { method: 'resources/list', outcome: 'ok' },
      { method: 'resources/templates/list', outcome: 'ok' },
      { method: 'prompts/list', outcome: 'ok' },
      { method: 'tools/call', kind: 'tool', name: 'forecast', outcome: 'ok' },
      { method: 'resources/read', name: 'weather://city/Lyon', outcome: 'ok' },
      { method: 'prompts/get', kind: 'prompt', name: 'brief', outcome: 'ok' },
    ]);
    expect(stderr.mock.calls.join('\n')).not.toContain(secret);
    expect(stdout).not.toHaveBeenCalled();
  });

  it('tells invalid arguments, errors and refusals apart from the answers', async () => {
    await client.callTool({ name: 'forecast', arguments: {} });
    await client.callTool({ name: 'outage', arguments: { city: 'Lyon' } });
    await expect(client.callTool({ name: 'hidden', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: 'nothing', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource({ uri: 'weather://nowhere' })).rejects.toMatchObject({ code: -32602, message: 'Resource not found: weather://nowhere', data: { uri: 'weather://nowhere' } });
    await expect(client.getPrompt({ name: 'brief', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(written()).toEqual([
      { method: 'tools/call', kind: 'tool', name: 'forecast', outcome: 'invalid' },
      { method: 'tools/call', kind: 'tool', name: 'outage', outcome: 'error' },
      { method: 'tools/call', kind: 'tool', name: 'hidden', outcome: 'denied', error: 'ProtocolError' },
      { method: 'tools/call', kind: 'tool', name: 'nothing', outcome: 'denied', error: 'ProtocolError' },
      { method: 'resources/read', name: 'weather://nowhere', outcome: 'denied', error: 'RequestError' },
      { method: 'prompts/get', kind: 'prompt', name: 'brief', outcome: 'invalid', error: 'RequestError' },
    ]);
  });

  it('cuts a tool name a client sent at 256 characters', async () => {
    const long = 'x'.repeat(5000);
    // The caller is told the name it sent, whole; only the log line cuts it.
    await expect(client.callTool({ name: long, arguments: {} })).rejects.toMatchObject({ code: -32602, message: `Unknown tool: ${long}` });
    expect(written()).toEqual([{ method: 'tools/call', kind: 'tool', name: `${'x'.repeat(256)}…`, outcome: 'denied', error: 'ProtocolError' }]);
  });
});

describe('TimingInterceptor over HTTP', () => {
  it('logs the session id', async () => {
    const lines: TimingEntry[] = [];
    @Module({
      imports: [McpModule.forRoot({ name: 'timing-http', version: '1.0.0', middleware: [new TimingInterceptor({ sink: (e) => lines.push(e) })] })],
      providers: [Weather],
    })
    class HttpModule {}
    const app = await McpFactory.create(HttpModule);
    try {
      await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      const transport = new StreamableHTTPClientTransport(new URL(await app.getUrl()));
      const client = new Client({ name: 'timing-http', version: '1.0.0' });
      await client.connect(transport);
      await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } });
      await client.close();
      expect(transport.sessionId).toEqual(expect.any(String));
      expect(lines.filter((l) => l.method === 'tools/call').map((l) => l.sessionId)).toEqual([transport.sessionId]);
    } finally {
      await app.close();
    }
  });
});
