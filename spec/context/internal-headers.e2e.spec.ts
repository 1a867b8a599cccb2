import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type CanActivate, Context, Ctx, type ExecutionContext, Injectable, McpApplication, McpFactory, McpModule, Module, Tool, UseGuards } from 'mcp-reflect';

/** What a guard saw of `ctx.headers` as the tools were listed. */
const seenByGuard: string[][] = [];

@Injectable()
class HeaderGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    seenByGuard.push(Object.keys(context.context.headers ?? {}));
    return true;
  }
}

@Injectable()
class Echo {
  @Tool()
  headerNames(@Ctx() ctx: Context): string {
    return JSON.stringify(Object.keys(ctx.headers ?? {}));
  }

  @UseGuards(HeaderGuard)
  @Tool()
  guarded(): string {
    return 'ok';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'headers', version: '1.0.0' })], providers: [Echo, HeaderGuard] })
class EchoModule {}

/**
 * The endpoint hands the handlers the remote address and the client key through headers whose names are random
 * per process (so that no client can send them): `ctx.headers` never shows them, to a tool or to a guard.
 */
describe('ctx.headers over HTTP', () => {
  let app: McpApplication;
  let client: Client;

  beforeAll(async () => {
    app = await McpFactory.create(EchoModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, path: '/mcp' });
    client = new Client({ name: 'headers-spec', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(await app.getUrl()), { requestInit: { headers: { 'x-custom': 'mine' } } }));
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  it("shows the client's headers to a tool, and never the per-process internal ones", async () => {
    const result = await client.callTool({ name: 'headerNames', arguments: {} });
    const names = JSON.parse((result.content as { text: string }[])[0]!.text) as string[];
    expect(names).toEqual(expect.arrayContaining(['host', 'x-custom', 'content-type']));
    expect(names.filter((name) => name.startsWith('x-mcp-reflect-'))).toEqual([]);
  });

  it('never shows them to a guard asked while the tools are listed', async () => {
    seenByGuard.length = 0;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('guarded');
    expect(seenByGuard.length).toBeGreaterThan(0);
    for (const names of seenByGuard) {
      expect(names).toContain('x-custom');
      expect(names.filter((name) => name.startsWith('x-mcp-reflect-'))).toEqual([]);
    }
  });
});
