import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  BootstrapError,
  Catch,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  RateLimitError,
  RateLimitGuard,
  Resource,
  ResourceList,
  Tool,
  ToolError,
  UseFilters,
  UseGuards,
  type ExceptionFilter,
  type McpApplication,
  type RateLimitOptions,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { answer } from '../../support/clients';
import { fakeOnly } from '../../support/waiting';

/** An application whose every component is behind one RateLimitGuard, and a first client named 'alice'. */
async function limited(options: RateLimitOptions, name = 'alice'): Promise<{ client: TestClient; app: McpApplication; guard: RateLimitGuard }> {
  const guard = new RateLimitGuard(options);

  @Injectable()
  class Weather {
    @Tool()
    forecast(@Param() city: string): string {
      return `Sunny in ${city}`;
    }

    @Tool()
    alerts(@Param() city: string): string {
      return `No alerts in ${city}`;
    }

    @Resource('weather://stations')
    stations(): string {
      return 'Orly, Roissy';
    }

    @ResourceList()
    cities() {
      return [{ uri: 'weather://city/lyon', name: 'lyon' }];
    }
  }

  @Module({ imports: [McpModule.forRoot({ name: 'limited', version: '1.0.0', guards: [guard] })], providers: [Weather] })
  class LimitedModule {}
  const client = await createTestClient(LimitedModule, { clientInfo: { name, version: '1.0.0' } });
  return { client, app: client.app, guard };
}

const call = async (client: Client, name = 'forecast', args: Record<string, unknown> = { city: 'Lyon' }) =>
  answer(await client.callTool({ name, arguments: args }));

describe('RateLimitGuard', () => {
  const open: Client[] = [];
  afterEach(async () => {
    // Clients of one application first, its own client (which closes the application) last.
    for (const client of open.splice(0).reverse()) await client.close();
  });

  it('lets a burst of `capacity` calls through, then answers with the wait', async () => {
    const { client } = await limited({ capacity: 2, refillPerMinute: 1 / 60 });
    open.push(client);
    expect(await call(client)).toEqual({ text: 'Sunny in Lyon', isError: false });
    expect(await call(client)).toEqual({ text: 'Sunny in Lyon', isError: false });
    // One token per hour: the next one is 60 minutes away (less the few milliseconds since).
    expect(await call(client)).toEqual({ text: "Rate limit exceeded for tool 'forecast': try again in 60 min.", isError: true });
  });

  it('refills the bucket over time', async () => {
    fakeOnly(['performance']); // the guard's clock, moved by the spec
    try {
      const { client } = await limited({ capacity: 1, refillPerSecond: 20 });
      open.push(client);
      expect((await call(client)).isError).toBe(false);
      expect((await call(client)).text).toMatch(/^Rate limit exceeded for tool 'forecast': try again in 1 s\.$/);
      jest.advanceTimersByTime(40); // one token takes 50 ms
      expect((await call(client)).isError).toBe(true);
      jest.advanceTimersByTime(20);
      expect(await call(client)).toEqual({ text: 'Sunny in Lyon', isError: false });
      expect((await call(client)).isError).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('never takes tokens for lists (nor for the @ResourceList() methods of resources/list)', async () => {
    const { client } = await limited({ capacity: 1, refillPerMinute: 1 / 60 });
    open.push(client);
    for (let i = 0; i < 3; i++) {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['forecast', 'alerts']);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['weather://stations', 'weather://city/lyon']);
    }
    expect(await call(client)).toEqual({ text: 'Sunny in Lyon', isError: false });
    expect((await call(client)).isError).toBe(true);
    // An empty bucket hides nothing.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['forecast', 'alerts']);
  });

  it('answers a resource read over the limit with a JSON-RPC error carrying the same text', async () => {
    const { client } = await limited({ capacity: 1, refillPerMinute: 1 / 60 });
    open.push(client);
    expect((await client.readResource({ uri: 'weather://stations' })).contents).toEqual([
      { uri: 'weather://stations', mimeType: 'text/plain', text: 'Orly, Roissy' },
    ]);
    await expect(client.readResource({ uri: 'weather://stations' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("Rate limit exceeded for resource 'stations': try again in 60 min."),
    });
  });

  it('shares one bucket across components unless perComponent is set', async () => {
    const shared = await limited({ capacity: 1, refillPerMinute: 1 / 60 });
    open.push(shared.client);
    expect((await call(shared.client, 'forecast')).isError).toBe(false);
    expect(await call(shared.client, 'alerts')).toEqual({ text: "Rate limit exceeded for tool 'alerts': try again in 60 min.", isError: true });

    const apart = await limited({ capacity: 1, refillPerMinute: 1 / 60, perComponent: true });
    open.push(apart.client);
    expect((await call(apart.client, 'forecast')).isError).toBe(false);
    expect(await call(apart.client, 'alerts')).toEqual({ text: 'No alerts in Lyon', isError: false });
    expect((await call(apart.client, 'alerts')).isError).toBe(true);
  });

  it("keeps one bucket per client name with key: 'client'", async () => {
    const { client: alice, app } = await limited({ capacity: 1, refillPerMinute: 1 / 60, key: 'client' });
    const bob = await createTestClient(app, { clientInfo: { name: 'bob', version: '1.0.0' } });
    open.push(alice, bob);
    expect((await call(alice)).isError).toBe(false);
    expect((await call(alice)).isError).toBe(true);
    expect(await call(bob)).toEqual({ text: 'Sunny in Lyon', isError: false });
  });

  it('keeps one bucket per value of a key function', async () => {
    const { client } = await limited({ capacity: 1, refillPerMinute: 1 / 60, key: (context) => String(context.switchToRpc().getData<{ city?: string }>()?.city) });
    open.push(client);
    expect((await call(client, 'forecast', { city: 'Lyon' })).isError).toBe(false);
    expect((await call(client, 'forecast', { city: 'Lyon' })).isError).toBe(true);
    expect((await call(client, 'forecast', { city: 'Nice' })).isError).toBe(false);
  });

  it('keeps at most maxKeys buckets, forgetting the least recently used', async () => {
    const { client: a, app } = await limited({ capacity: 1, refillPerMinute: 1 / 60, key: 'client', maxKeys: 2 }, 'a');
    const b = await createTestClient(app, { clientInfo: { name: 'b', version: '1.0.0' } });
    const c = await createTestClient(app, { clientInfo: { name: 'c', version: '1.0.0' } });
    open.push(a, b, c);
    expect((await call(a)).isError).toBe(false);
    expect((await call(a)).isError).toBe(true);
    expect((await call(b)).isError).toBe(false);
    expect((await call(c)).isError).toBe(false); // a's bucket, the least recently used, is forgotten
    expect((await call(a)).isError).toBe(false); // a new full bucket (which pushes b's out)
    expect((await call(c)).isError).toBe(true); // c's bucket was kept: still empty
  });

  it('throws a RateLimitError whose retryAfterMs matches its text', async () => {
    const seen: RateLimitError[] = [];

    @Catch(RateLimitError)
    class Record implements ExceptionFilter {
      catch(error: RateLimitError): never {
        seen.push(error);
        throw error;
      }
    }

    @Injectable()
    class Tools {
      @UseFilters(Record)
      @UseGuards(new RateLimitGuard({ capacity: 1, refillPerSecond: 0.5 }))
      @Tool()
      forecast(@Param() city: string): string {
        return `Sunny in ${city}`;
      }
    }

    @Module({ imports: [McpModule.forRoot({ name: 'retry', version: '1.0.0' })], providers: [Tools] })
    class RetryModule {}
    const client = await createTestClient(RetryModule);
    open.push(client);
    await call(client);
    const refused = await call(client);
    expect(seen).toHaveLength(1);
    const [error] = seen;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toBeInstanceOf(ToolError);
    expect(error.name).toBe('RateLimitError');
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(2000);
    expect(refused).toEqual({ text: `Rate limit exceeded for tool 'forecast': try again in ${Math.ceil(error.retryAfterMs / 1000)} s.`, isError: true });
  });

  it.each([
    [{ capacity: 0, refillPerSecond: 1 }, "Cannot create RateLimitGuard: the option 'capacity' must be an integer of at least 1, got 0.\nFix: pass it, e.g. new RateLimitGuard({ capacity: 10, refillPerMinute: 30 })."],
    [{ capacity: 5 }, "Cannot create RateLimitGuard: give exactly one of the options 'refillPerSecond' and 'refillPerMinute', got neither.\nFix: pass one, e.g. new RateLimitGuard({ capacity: 10, refillPerMinute: 30 })."],
    [{ capacity: 5, refillPerSecond: 1, refillPerMinute: 60 }, "Cannot create RateLimitGuard: give exactly one of the options 'refillPerSecond' and 'refillPerMinute', got both.\nFix: pass one, e.g. new RateLimitGuard({ capacity: 10, refillPerMinute: 30 })."],
    [{ capacity: 5, refillPerMinute: 0 }, "Cannot create RateLimitGuard: the option 'refillPerMinute' must be a number greater than 0, got 0.\nFix: pass it, e.g. new RateLimitGuard({ capacity: 10, refillPerMinute: 30 })."],
    [{ capacity: 5, refillPerMinute: 1, key: 'ip' }, "Cannot create RateLimitGuard: the option 'key' must be 'session', 'client', 'subject' or a function of the context, got 'ip'.\nFix: pass it, e.g. new RateLimitGuard({ capacity: 10, refillPerMinute: 30, key: 'subject' })."],
  ])('rejects the options %j', (options, message) => {
    let error: unknown;
    try {
      new RateLimitGuard(options as RateLimitOptions);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BootstrapError);
    expect(error).toMatchObject({ code: 'INVALID_OPTION', message });
  });
});

describe("RateLimitGuard with key: 'subject' over authenticated HTTP", () => {
  let app: McpApplication;
  let server: Server;
  let url: URL;
  const clients: Client[] = [];

  beforeAll(async () => {
    @Injectable()
    class Weather {
      @Tool()
      forecast(@Param() city: string): string {
        return `Sunny in ${city}`;
      }
    }
    @Module({
      imports: [McpModule.forRoot({ name: 'subject', version: '1.0.0', guards: [new RateLimitGuard({ capacity: 1, refillPerMinute: 1 / 60, key: 'subject' })] })],
      providers: [Weather],
    })
    class SubjectModule {}
    app = await McpFactory.create(SubjectModule);
    const handler = app.createHttpHandler();
    // Stands for an authorization middleware: the verified token's subject, from a header for the test.
    server = createServer((req: IncomingMessage & { auth?: unknown }, res) => {
      const subject = req.headers['x-subject'];
      if (typeof subject === 'string') req.auth = { token: `token-of-${subject}`, clientId: 'shared-app', scopes: [], subject };
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const connect = async (subject?: string) => {
    const client = new Client({ name: 'http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: subject ? { 'x-subject': subject } : {} } }));
    clients.push(client);
    return client;
  };

  it('shares a bucket between the sessions of one subject, and not with another subject', async () => {
    const ada = await connect('ada');
    const adaAgain = await connect('ada');
    const grace = await connect('grace');
    expect((await call(ada)).isError).toBe(false);
    expect(await call(adaAgain)).toEqual({ text: "Rate limit exceeded for tool 'forecast': try again in 60 min.", isError: true });
    expect((await call(grace)).isError).toBe(false);
  });

  it('falls back to the session without auth', async () => {
    const first = await connect();
    const second = await connect();
    expect((await call(first)).isError).toBe(false);
    expect((await call(first)).isError).toBe(true);
    expect((await call(second)).isError).toBe(false);
  });
});
