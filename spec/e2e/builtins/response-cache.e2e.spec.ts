import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  BootstrapError,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceTemplate,
  ResponseCacheInterceptor,
  Tool,
  ToolError,
  ToolResult,
  text,
  type McpApplication,
  type ResponseCacheOptions,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { answer } from '../../support/clients';
import { fakeOnly } from '../../support/waiting';

/** Counts how often each method really ran. */
class Calls {
  readonly counts: Record<string, number> = {};
  count(name: string): number {
    return (this.counts[name] = (this.counts[name] ?? 0) + 1);
  }
}

/** An application with one ResponseCacheInterceptor around everything; its tools count their runs. */
async function cached(options: ResponseCacheOptions): Promise<{ app: McpApplication; calls: Calls; cache: ResponseCacheInterceptor }> {
  const calls = new Calls();
  const cache = new ResponseCacheInterceptor(options);

  @Injectable()
  class Weather {
    @Tool({ annotations: { readOnlyHint: true } })
    forecast(@Param() city: string, @Param({ optional: true }) days?: number): string {
      return `Forecast #${calls.count('forecast')} for ${city}${days ? ` over ${days} days` : ''}`;
    }

    @Tool()
    report(@Param() city: string): string {
      return `Report #${calls.count('report')} for ${city}`;
    }

    @Tool({ annotations: { readOnlyHint: true } })
    flaky(@Param() city: string): string | ToolResult {
      const n = calls.count('flaky');
      if (n === 1) throw new ToolError(`Station ${city} is offline`);
      if (n === 2) return new ToolResult({ content: [text(`Partial data for ${city}`)], isError: true });
      return `Data #${n} for ${city}`;
    }

    @Resource('weather://stations')
    stations(): string {
      return `Stations #${calls.count('stations')}`;
    }

    @ResourceTemplate('weather://city/{city}')
    city(@Param() city: string): string {
      return `Station of ${city} #${calls.count('city')}`;
    }

    @Prompt()
    brief(@Param() city: string): string {
      return `Brief #${calls.count('brief')} on ${city}`;
    }
  }

  @Module({ imports: [McpModule.forRoot({ name: 'cached', version: '1.0.0', interceptors: [cache] })], providers: [Weather] })
  class CachedModule {}
  return { app: await McpFactory.create(CachedModule), calls, cache };
}

const tool = async (client: Client, name: string, args: Record<string, unknown>) => answer(await client.callTool({ name, arguments: args }));
const read = async (client: Client, uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;

describe('ResponseCacheInterceptor', () => {
  let current: TestClient | undefined;
  let calls: Calls;
  let cache: ResponseCacheInterceptor;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  const start = async (options: ResponseCacheOptions) => {
    const built = await cached(options);
    ({ calls, cache } = built);
    current = await createTestClient(built.app);
    return current;
  };

  it('answers a read-only tool from the cache for the same arguments, in any key order', async () => {
    const client = await start({ ttlMs: 60_000 });
    expect(await tool(client, 'forecast', { city: 'Lyon', days: 3 })).toEqual({ text: 'Forecast #1 for Lyon over 3 days', isError: false });
    expect(await tool(client, 'forecast', { days: 3, city: 'Lyon' })).toEqual({ text: 'Forecast #1 for Lyon over 3 days', isError: false });
    expect(await tool(client, 'forecast', { city: 'Nice' })).toEqual({ text: 'Forecast #2 for Nice', isError: false });
    expect(await tool(client, 'forecast', { city: 'Lyon', days: 3 })).toEqual({ text: 'Forecast #1 for Lyon over 3 days', isError: false });
    expect(calls.counts.forecast).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('passes other tools and prompts through untouched', async () => {
    const client = await start({ ttlMs: 60_000 });
    expect((await tool(client, 'report', { city: 'Lyon' })).text).toBe('Report #1 for Lyon');
    expect((await tool(client, 'report', { city: 'Lyon' })).text).toBe('Report #2 for Lyon');
    await client.getPrompt({ name: 'brief', arguments: { city: 'Lyon' } });
    const prompt = await client.getPrompt({ name: 'brief', arguments: { city: 'Lyon' } });
    expect(prompt.messages[0].content).toEqual({ type: 'text', text: 'Brief #2 on Lyon' });
    expect(cache.size).toBe(0);
  });

  it('caches resources and resource templates', async () => {
    const client = await start({ ttlMs: 60_000 });
    expect(await read(client, 'weather://stations')).toBe('Stations #1');
    expect(await read(client, 'weather://stations')).toBe('Stations #1');
    expect(await read(client, 'weather://city/Lyon')).toBe('Station of Lyon #1');
    expect(await read(client, 'weather://city/Lyon')).toBe('Station of Lyon #1');
    expect(await read(client, 'weather://city/Nice')).toBe('Station of Nice #2');
    expect(calls.counts).toEqual({ stations: 1, city: 2 });
  });

  it('never keeps a failure: thrown errors and isError results', async () => {
    const client = await start({ ttlMs: 60_000 });
    expect(await tool(client, 'flaky', { city: 'Lyon' })).toEqual({ text: 'Station Lyon is offline', isError: true });
    expect(await tool(client, 'flaky', { city: 'Lyon' })).toEqual({ text: 'Partial data for Lyon', isError: true });
    expect(await tool(client, 'flaky', { city: 'Lyon' })).toEqual({ text: 'Data #3 for Lyon', isError: false });
    expect(await tool(client, 'flaky', { city: 'Lyon' })).toEqual({ text: 'Data #3 for Lyon', isError: false });
    expect(calls.counts.flaky).toBe(3);
  });

  it('does not cache invalid calls', async () => {
    const client = await start({ ttlMs: 60_000 });
    expect((await tool(client, 'forecast', {})).isError).toBe(true);
    expect(cache.size).toBe(0);
  });

  it('runs the method again once ttlMs has passed', async () => {
    fakeOnly(['performance']); // the cache's clock, moved by the spec
    try {
      const client = await start({ ttlMs: 40 });
      expect((await tool(client, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #1 for Lyon');
      jest.advanceTimersByTime(39);
      expect((await tool(client, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #1 for Lyon');
      jest.advanceTimersByTime(2); // past ttlMs (the very millisecond it ends is the cache's to decide)
      expect((await tool(client, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #2 for Lyon');
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps at most maxEntries answers, forgetting the least recently used', async () => {
    const client = await start({ ttlMs: 60_000, maxEntries: 2 });
    await tool(client, 'forecast', { city: 'A' }); // #1
    await tool(client, 'forecast', { city: 'B' }); // #2
    await tool(client, 'forecast', { city: 'A' }); // hit: A is now the most recent
    await tool(client, 'forecast', { city: 'C' }); // #3, pushes B out
    expect(cache.size).toBe(2);
    expect((await tool(client, 'forecast', { city: 'A' })).text).toBe('Forecast #1 for A');
    expect((await tool(client, 'forecast', { city: 'B' })).text).toBe('Forecast #4 for B');
    expect(calls.counts.forecast).toBe(4);
  });

  it('keeps at most maxBytes of answers, and never one larger than a tenth of it', async () => {
    const client = await start({ ttlMs: 60_000, maxBytes: 2_000 });
    // A forecast answer is a short text (~40 bytes as JSON, plus its key): about a dozen fit in 2,000 bytes.
    for (let i = 0; i < 40; i++) await tool(client, 'forecast', { city: `City ${i}` });
    expect(cache.bytes).toBeLessThanOrEqual(2_000);
    expect(cache.size).toBeLessThan(40);
    expect(cache.size).toBeGreaterThan(5);
    // The oldest went first; the newest is still served from the cache.
    expect((await tool(client, 'forecast', { city: 'City 39' })).text).toBe('Forecast #40 for City 39');
    expect((await tool(client, 'forecast', { city: 'City 0' })).text).toBe('Forecast #41 for City 0');
    // A city name of 300 characters makes an answer over 200 bytes: passed through, not kept.
    const before = cache.size;
    await tool(client, 'forecast', { city: 'x'.repeat(300) });
    expect(cache.size).toBe(before);
  });

  it('uses a key function in place of the arguments', async () => {
    const client = await start({ ttlMs: 60_000, key: (context) => String(context.switchToRpc().getData<{ city: string }>().city).toLowerCase() });
    expect((await tool(client, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #1 for Lyon');
    expect((await tool(client, 'forecast', { city: 'LYON' })).text).toBe('Forecast #1 for Lyon');
    // The component is always part of the key: the template is not answered with the tool's value.
    expect(await read(client, 'weather://city/Lyon')).toBe('Station of Lyon #1');
  });

  it('forgets everything on clear()', async () => {
    const client = await start({ ttlMs: 60_000 });
    await tool(client, 'forecast', { city: 'Lyon' });
    cache.clear();
    expect((await tool(client, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #2 for Lyon');
  });

  it.each([
    [{ ttlMs: 0 }, "Cannot create ResponseCacheInterceptor: the option 'ttlMs' must be a number greater than 0, got 0.\nFix: pass it, e.g. new ResponseCacheInterceptor({ ttlMs: 60_000 })."],
    [{ ttlMs: 10, maxEntries: 0.5 }, "Cannot create ResponseCacheInterceptor: the option 'maxEntries' must be an integer of at least 1, got 0.5.\nFix: pass it, e.g. new ResponseCacheInterceptor({ ttlMs: 60_000, maxEntries: 1000 })."],
    [{ ttlMs: 10, perCaller: 'client' }, "Cannot create ResponseCacheInterceptor: the option 'perCaller' must be true, false, 'session' or 'subject', got 'client'.\nFix: pass it, e.g. new ResponseCacheInterceptor({ ttlMs: 60_000, perCaller: 'session' })."],
  ])('rejects the options %j', (options, message) => {
    expect(() => new ResponseCacheInterceptor(options as ResponseCacheOptions)).toThrow(BootstrapError);
    expect(() => new ResponseCacheInterceptor(options as ResponseCacheOptions)).toThrow(message);
  });
});

describe('ResponseCacheInterceptor per caller (HTTP sessions)', () => {
  const apps: McpApplication[] = [];
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  const serve = async (options: ResponseCacheOptions, stateless = false) => {
    const { app, calls } = await cached(options);
    apps.push(app);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, stateless });
    const url = new URL(await app.getUrl());
    const connect = async () => {
      const client = new Client({ name: 'caller', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url));
      clients.push(client);
      return client;
    };
    return { calls, connect };
  };

  it('keeps answers apart per session with perCaller: true', async () => {
    const { calls, connect } = await serve({ ttlMs: 60_000, perCaller: true });
    const first = await connect();
    const second = await connect();
    expect((await tool(first, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #1 for Lyon');
    expect((await tool(second, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #2 for Lyon');
    expect((await tool(first, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #1 for Lyon');
    expect((await tool(second, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #2 for Lyon');
    expect(calls.counts.forecast).toBe(2);
  });

  it('shares answers between sessions by default', async () => {
    const { connect } = await serve({ ttlMs: 60_000 });
    expect((await tool(await connect(), 'forecast', { city: 'Lyon' })).text).toBe('Forecast #1 for Lyon');
    expect((await tool(await connect(), 'forecast', { city: 'Lyon' })).text).toBe('Forecast #1 for Lyon');
  });

  it('never serves callers it cannot tell apart (stateless HTTP) from the cache when perCaller is set', async () => {
    const { calls, connect } = await serve({ ttlMs: 60_000, perCaller: 'session' }, true);
    const client = await connect();
    expect((await tool(client, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #1 for Lyon');
    expect((await tool(client, 'forecast', { city: 'Lyon' })).text).toBe('Forecast #2 for Lyon');
    expect(calls.counts.forecast).toBe(2);
  });
});
