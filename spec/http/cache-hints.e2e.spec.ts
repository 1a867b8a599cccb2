import 'reflect-metadata';
import { CanActivate, Injectable, McpApplication, McpFactory, McpModule, Module, Param, Prompt, Resource, ResourceTemplate, Tool, UseGuards, userMessage } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { JSON_AND_SSE, messagesOf } from '../support/http-helpers';

@Injectable()
class Catalogue {
  @Tool()
  ping(): string {
    return 'pong';
  }

  @Prompt()
  hello() {
    return [userMessage('hello')];
  }

  @Resource('config://app', { cacheHint: { ttlMs: 60_000, cacheScope: 'public' } })
  config(): string {
    return 'debug=false';
  }

  @Resource('status://now')
  status(): string {
    return 'up';
  }

  @ResourceTemplate('user://{id}', { cacheHint: { cacheScope: 'private' } })
  user(@Param() id: string): string {
    return `user ${id}`;
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'cached',
      version: '1.0.0',
      cacheHints: {
        'tools/list': { ttlMs: 300_000, cacheScope: 'public' },
        'prompts/list': { ttlMs: 1_000 },
        'resources/read': { ttlMs: 5_000 },
      },
    }),
  ],
  providers: [Catalogue],
})
class CachedModule {}

/** The cache fields of a 2026-07-28 result of `method`, sent raw. */
async function hintOf(url: string, method: string, params: Record<string, unknown> = {}, name?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, 'mcp-method': method, 'mcp-protocol-version': '2026-07-28', ...(name ? { 'mcp-name': name } : {}) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const { ttlMs, cacheScope } = messagesOf(await response.text())[0].result;
  return { ttlMs, cacheScope };
}

describe('cache hints (SEP-2549): forRoot({ cacheHints }) per list, @Resource({ cacheHint }) per resource', () => {
  let app: McpApplication;
  let url: string;

  beforeAll(async () => {
    app = await McpFactory.create(CachedModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  const request = (method: string, params: Record<string, unknown> = {}, name?: string) => hintOf(url, method, params, name);

  it('puts the configured hint on each list, the SDK default where none is set (2026-07-28)', async () => {
    expect(await request('tools/list')).toEqual({ ttlMs: 300_000, cacheScope: 'public' });
    expect(await request('prompts/list')).toEqual({ ttlMs: 1_000, cacheScope: 'private' });
    expect(await request('resources/list')).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(await request('resources/templates/list')).toEqual({ ttlMs: 0, cacheScope: 'private' });
    // Twice: the hinted page is built once and reused.
    expect(await request('tools/list')).toEqual({ ttlMs: 300_000, cacheScope: 'public' });
  });

  it("gives a read the resource's own hint, field by field over the configured one", async () => {
    expect(await request('resources/read', { uri: 'config://app' }, 'config://app')).toEqual({ ttlMs: 60_000, cacheScope: 'public' });
    expect(await request('resources/read', { uri: 'status://now' }, 'status://now')).toEqual({ ttlMs: 5_000, cacheScope: 'private' });
    expect(await request('resources/read', { uri: 'user://7' }, 'user://7')).toEqual({ ttlMs: 5_000, cacheScope: 'private' });
  });

  it('adds nothing on 2025 eras, where results carry no cache fields', async () => {
    const client = await createTestClient(CachedModule, { protocolVersion: '2025-11-25' });
    try {
      expect(await client.listTools()).not.toHaveProperty('ttlMs');
      expect(await client.readResource({ uri: 'config://app' })).not.toHaveProperty('ttlMs');
    } finally {
      await client.close();
    }
  });
});

@Injectable()
class StaffOnly implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Injectable()
class GuardedCatalogue {
  @Tool()
  open(): string {
    return 'open';
  }

  @UseGuards(StaffOnly)
  @Tool()
  payroll(): string {
    return 'payroll';
  }

  @UseGuards(StaffOnly)
  @Resource('payroll://march', { cacheHint: { ttlMs: 60_000, cacheScope: 'public' } })
  march(): string {
    return 'salaries';
  }
}

describe('cache hints of results that depend on the caller (guards)', () => {
  let app: McpApplication;
  let url: string;

  beforeAll(async () => {
    @Module({
      imports: [McpModule.forRoot({ name: 'guarded', version: '1.0.0', cacheHints: { 'tools/list': { ttlMs: 300_000, cacheScope: 'public' } } })],
      providers: [StaffOnly, GuardedCatalogue],
    })
    class GuardedModule {}
    app = await McpFactory.create(GuardedModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it("are never 'public': a shared cache would hand one caller's list or read to another", async () => {
    const post = (method: string, params: Record<string, unknown> = {}, name?: string) => hintOf(url, method, params, name);
    expect(await post('tools/list')).toEqual({ ttlMs: 300_000, cacheScope: 'private' });
    expect(await post('resources/read', { uri: 'payroll://march' }, 'payroll://march')).toEqual({ ttlMs: 60_000, cacheScope: 'private' });
  });
});

describe('cache hints at bootstrap', () => {
  it('refuses an invalid @Resource cacheHint, naming the resource', async () => {
    @Injectable()
    class Bad {
      @Resource('config://bad', { cacheHint: { ttlMs: -1 } })
      bad(): string {
        return '';
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'bad', version: '1.0.0' })], providers: [Bad] })
    class BadModule {}
    await expect(McpFactory.create(BadModule)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        "Cannot use the cache hint of resource 'bad' (Bad.bad): its ttlMs -1 is not a whole number of milliseconds from 0.\n" +
        "Fix: give { ttlMs, cacheScope } with ttlMs in milliseconds (0: do not reuse) and cacheScope 'public' (any user may share it) or 'private', " +
        "e.g. @Resource('config://bad', { cacheHint: { ttlMs: 60_000, cacheScope: 'public' } }).",
    });
  });

  it('refuses an operation that is not cacheable, and a bad scope', async () => {
    const create = (cacheHints: object) => {
      @Module({ imports: [McpModule.forRoot({ name: 'bad', version: '1.0.0', cacheHints: cacheHints as never })], providers: [Catalogue] })
      class BadModule {}
      return McpFactory.create(BadModule);
    };
    await expect(create({ 'tools/call': { ttlMs: 1 } })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        "Cannot use the cache hint of McpModule.forRoot({ cacheHints: { 'tools/call' } }): 'tools/call' is not a cacheable operation.\n" +
        "Fix: use one of 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'.",
    });
    await expect(create({ 'tools/list': { cacheScope: 'shared' } })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining(`Cannot use the cache hint of McpModule.forRoot({ cacheHints: { 'tools/list' } }): its cacheScope "shared" is neither 'public' nor 'private'.`),
    });
  });
});
