import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Inject, Injectable, Module, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpComponents, Param, Tool } from 'mcp-reflect';
import { McpModule, McpService } from 'mcp-reflect/nest';

@Injectable()
class Stock {
  readonly taken: string[] = [];
}

@Injectable()
class CatalogTools {
  constructor(@Inject(Stock) private readonly stock: Stock) {}

  @Tool()
  take(@Param() item: string): string {
    this.stock.taken.push(item);
    return `took ${item} (${this.stock.taken.length})`;
  }
}

@Module({ providers: [Stock, CatalogTools], exports: [Stock] })
class CatalogModule {}

@Injectable()
class AdminTools {
  constructor(
    @Inject(Stock) private readonly stock: Stock,
    @Inject(McpComponents.of('admin')) private readonly components: McpComponents,
  ) {}

  @Tool()
  restock(): string {
    const count = this.stock.taken.length;
    this.stock.taken.length = 0;
    return `restocked ${count}; admin serves ${this.components.tools.names().sort().join(', ')}`;
  }
}

@Module({ imports: [CatalogModule], providers: [AdminTools] })
class AdminModule {}

/** An HTTP guard on the admin endpoint only: a request without the admin key never reaches MCP. */
class AdminKey implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-admin-key'] === 'open sesame';
  }
}

@Module({
  imports: [
    McpModule.forRoot({ name: 'public', version: '1.0.0', modules: [CatalogModule], http: { path: '/public' } }),
    McpModule.forRoot({ name: 'admin', version: '2.0.0', modules: [AdminModule], http: { path: '/admin', guards: [AdminKey] } }),
  ],
})
class ShopModule {}

const text = (result: unknown) => ((result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text ?? '';

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe('Several servers in one Nest application (mcp-reflect/nest)', () => {
  it('serves each its modules at its own route, with its own HTTP guard, on shared providers', async () => {
    const app = await NestFactory.create(ShopModule, { logger: false, forceCloseConnections: true });
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
    try {
      expect(app.get<McpService>(McpService.of('admin')).application.inspect().server).toMatchObject({ name: 'admin', version: '2.0.0' });
      const shopper = await connect(`${base}/public`);
      expect(shopper.getServerVersion()).toMatchObject({ name: 'public' });
      expect((await shopper.listTools()).tools.map((t) => t.name)).toEqual(['take']);
      expect(text(await shopper.callTool({ name: 'take', arguments: { item: 'apple' } }))).toBe('took apple (1)');
      await shopper.close();

      const refused = await fetch(`${base}/admin`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(refused.status).toBe(403);
      const admin = await connect(`${base}/admin`, { 'x-admin-key': 'open sesame' });
      expect(admin.getServerVersion()).toMatchObject({ name: 'admin', version: '2.0.0' });
      expect((await admin.listTools()).tools.map((t) => t.name).sort()).toEqual(['restock', 'take']);
      expect(text(await admin.callTool({ name: 'restock', arguments: {} }))).toBe('restocked 1; admin serves restock, take');
      await admin.close();
    } finally {
      await app.close();
    }
  });

  it('refuses servers it cannot tell apart, naming the fix', async () => {
    @Module({ imports: [McpModule.forRoot({ name: 'a', version: '1', http: false }), McpModule.forRoot({ name: 'b', version: '1', modules: [CatalogModule], http: false })] })
    class Unnamed {}
    await expect(NestFactory.createApplicationContext(Unnamed, { logger: false, abortOnError: false })).rejects.toThrow(/'a' does not name the modules it serves[\s\S]*Fix: give each McpModule.forRoot\(\) its modules/);

    @Module({ imports: [McpModule.forRoot({ name: 'a', version: '1', modules: [CatalogModule] }), McpModule.forRoot({ name: 'admin', version: '1', modules: [AdminModule] })] })
    class SameRoute {}
    await expect(NestFactory.createApplicationContext(SameRoute, { logger: false, abortOnError: false })).rejects.toThrow(/two are served at the route \/mcp[\s\S]*http: \{ path: '\/admin' \}/);
  });
});
