import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  BootstrapError,
  Inject,
  Injectable,
  McpComponents,
  McpFactory,
  McpModule,
  Module,
  Param,
  Tool,
  type AuthOptions,
  type CanActivate,
  type ExecutionContext,
  type McpAuth,
  type OnApplicationBootstrap,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

/** One instance for the whole application: both servers count on it. */
@Injectable()
class Stock {
  readonly taken: string[] = [];
  static built = 0;
  constructor() {
    Stock.built++;
  }
}

@Injectable()
class CatalogTools {
  constructor(private readonly stock: Stock) {}

  @Tool()
  take(@Param() item: string): string {
    this.stock.taken.push(item);
    return `took ${item} (${this.stock.taken.length} taken)`;
  }
}

@Module({ providers: [Stock, CatalogTools], exports: [Stock] })
class CatalogModule {}

/** The admin server's own guard: only callers with the 'admin' scope. */
class AdminScope implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return (context.auth?.scopes ?? []).includes('admin');
  }
}

@Injectable()
class AdminTools implements OnApplicationBootstrap {
  static bootstrapped = 0;
  constructor(
    private readonly stock: Stock,
    @Inject(McpComponents.of('admin')) private readonly components: McpComponents,
  ) {}

  onApplicationBootstrap(): void {
    AdminTools.bootstrapped++;
    this.components.tools.disable('hidden'); // its own server's controls, from a provider
  }

  @Tool()
  restock(): string {
    const count = this.stock.taken.length;
    this.stock.taken.length = 0;
    return `restocked ${count}`;
  }

  @Tool()
  hidden(): string {
    return 'never listed';
  }
}

@Module({ imports: [CatalogModule], providers: [AdminTools] })
class AdminModule {}

@Module({
  imports: [
    McpModule.forRoot({ name: 'public', version: '1.0.0', modules: [CatalogModule] }),
    McpModule.forRoot({ name: 'admin', version: '2.0.0', modules: [CatalogModule, AdminModule], guards: [AdminScope] }),
  ],
})
class ShopModule {}

const text = (result: unknown) => ((result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text ?? '';
/** Tokens of the admin endpoint, bound to its URL (the audience the endpoint checks). */
const verifier = (audience: () => string): AuthOptions['verify'] => async (token: string): Promise<McpAuth> => ({
  subject: token,
  clientId: 'cli',
  scopes: token === 'root' ? ['admin'] : [],
  expiresAt: Math.floor(Date.now() / 1000) + 60,
  issuer: 'https://as.example.com',
  claims: { aud: audience(), sub: token, iss: 'https://as.example.com' },
  token,
});

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}));
  return client;
}

describe('Several servers in one application: McpFactory.createServers()', () => {
  it('serves each the modules it names, with its own options and guards, on providers shared by both', async () => {
    Stock.built = 0;
    AdminTools.bootstrapped = 0;
    const servers = await McpFactory.createServers(ShopModule);
    expect(servers.names).toEqual(['public', 'admin']);
    const shopper = await createTestClient(servers.get('public'));
    const admin = await createTestClient(servers.get('admin'), { auth: { subject: 'root', scopes: ['admin'] } });
    const intruder = await createTestClient(servers.get('admin'), { auth: { subject: 'eve', scopes: [] } });
    try {
      expect(shopper.getServerVersion()).toMatchObject({ name: 'public', version: '1.0.0' });
      expect(admin.getServerVersion()).toMatchObject({ name: 'admin', version: '2.0.0' });
      expect((await shopper.listTools()).tools.map((t) => t.name)).toEqual(['take']);
      expect((await admin.listTools()).tools.map((t) => t.name).sort()).toEqual(['restock', 'take']); // 'hidden' disabled by its provider
      expect((await intruder.listTools()).tools).toEqual([]); // the admin server's guard, not the public one's
      expect(text(await shopper.callTool({ name: 'take', arguments: { item: 'apple' } }))).toBe('took apple (1 taken)');
      expect(text(await admin.callTool({ name: 'take', arguments: { item: 'pear' } }))).toBe('took pear (2 taken)');
      expect(text(await admin.callTool({ name: 'restock', arguments: {} }))).toBe('restocked 2');
      expect(await shopper.callTool({ name: 'restock', arguments: {} }).catch((e: Error) => e.message)).toMatch(/Unknown tool|restock/);
      expect(Stock.built).toBe(1);
      expect(AdminTools.bootstrapped).toBe(1);
    } finally {
      await Promise.all([shopper, admin, intruder].map((c) => c.close()));
      await servers.close();
    }
  });

  it('serves both on one HTTP server, /public open and /admin behind its own bearer auth', async () => {
    const servers = await McpFactory.createServers(ShopModule);
    let adminUrl = '';
    const verify = verifier(() => adminUrl);
    await servers.listen({
      transport: 'http',
      host: '127.0.0.1',
      port: 0,
      endpoints: { public: { path: '/public' }, admin: { path: '/admin', auth: { issuer: 'https://as.example.com', verify } } },
    });
    const publicUrl = await servers.get('public').getUrl();
    adminUrl = await servers.get('admin').getUrl();
    expect(new URL(publicUrl).port).toBe(new URL(adminUrl).port);
    expect(new URL(adminUrl).pathname).toBe('/admin');
    try {
      const shopper = await connect(publicUrl);
      expect((await shopper.listTools()).tools.map((t) => t.name)).toEqual(['take']);
      await shopper.close();
      const anonymous = await fetch(adminUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/resource_metadata=".*\/\.well-known\/oauth-protected-resource\/admin"/);
      const metadata = await (await fetch(new URL('/.well-known/oauth-protected-resource/admin', adminUrl))).json();
      expect(metadata).toMatchObject({ resource: adminUrl });
      const admin = await connect(adminUrl, 'root');
      expect((await admin.listTools()).tools.map((t) => t.name).sort()).toEqual(['restock', 'take']);
      await admin.close();
      const missing = await fetch(new URL('/nowhere', adminUrl), { method: 'POST', body: '{}' });
      expect(missing.status).toBe(404);
      expect(await missing.text()).toMatch(/\/public, \/admin/);
    } finally {
      await servers.close();
    }
  });

  it('one on stdio-like in-memory and one over HTTP: each serves on its own', async () => {
    const servers = await McpFactory.createServers(ShopModule);
    try {
      await servers.get('public').listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      const shopper = await connect(await servers.get('public').getUrl());
      const admin = await createTestClient(servers.get('admin'), { auth: { subject: 'root', scopes: ['admin'] } });
      expect(text(await shopper.callTool({ name: 'take', arguments: { item: 'fig' } }))).toMatch(/took fig/);
      expect(text(await admin.callTool({ name: 'restock', arguments: {} }))).toMatch(/restocked/);
      await shopper.close();
      await admin.close();
    } finally {
      await servers.close();
    }
  });

  it('refuses a graph it cannot split, naming the fix', async () => {
    @Module({ imports: [McpModule.forRoot({ name: 'a', version: '1' }), McpModule.forRoot({ name: 'b', version: '1', modules: [CatalogModule] })] })
    class Unnamed {}
    await expect(McpFactory.createServers(Unnamed)).rejects.toThrow(/'a' does not name the modules it serves[\s\S]*Fix: give each McpModule.forRoot\(\) the modules it serves/);

    @Module({ imports: [McpModule.forRoot({ name: 'a', version: '1', modules: [CatalogModule] }), McpModule.forRoot({ name: 'a', version: '2', modules: [CatalogModule] })] })
    class Twice {}
    await expect(McpFactory.createServers(Twice)).rejects.toThrow(/two McpModule.forRoot\(\) are named 'a'/);

    const one = McpFactory.create(ShopModule);
    await expect(one).rejects.toBeInstanceOf(BootstrapError);
    await expect(one).rejects.toThrow(/declares 2 \('public', 'admin'\)[\s\S]*McpFactory.createServers\(ShopModule\)/);
  });

  it('an unnamed McpComponents cannot tell the servers apart: it says so, with the fix', async () => {
    @Injectable()
    class Unsure {
      constructor(readonly components: McpComponents) {}
      @Tool()
      count(): number {
        return this.components.tools.names().length;
      }
    }
    @Module({ providers: [Unsure] })
    class UnsureModule {}
    const logged: string[] = [];
    const logger = { error: (...parts: unknown[]) => void logged.push(parts.map(String).join(' ')), warn: () => undefined, info: () => undefined, debug: () => undefined };
    @Module({
      imports: [
        McpModule.forRoot({ name: 'x', version: '1', modules: [UnsureModule], logger: logger as never }),
        McpModule.forRoot({ name: 'y', version: '1', modules: [CatalogModule] }),
      ],
    })
    class Two {}
    const servers = await McpFactory.createServers(Two);
    const client = await createTestClient(servers.get('x'));
    try {
      const result = await client.callTool({ name: 'count', arguments: {} });
      expect(result).toMatchObject({ isError: true });
    } finally {
      await client.close();
      await servers.close();
    }
    expect(logged.join('\n')).toMatch(/serves several MCP servers \('x', 'y'\)[\s\S]*Fix: inject the McpComponents of one server: @Inject\(McpComponents.of\('x'\)\)/);
  });
});
