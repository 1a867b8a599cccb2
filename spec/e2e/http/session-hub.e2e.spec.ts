import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, McpFactory, McpModule, Module, Tool, type McpApplication } from 'mcp-reflect';

@Injectable()
class Tools {
  @Tool()
  ping(): string {
    return 'pong';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'hub', version: '1.0.0', logger: { error() {}, warn: (m) => void warnings.push(m) } })], providers: [Tools] })
class HubModule {}

const warnings: string[] = [];
/** The live servers the application sends changes to (internal: read here to prove none is kept for nothing). */
const liveServers = (app: McpApplication) => (app as unknown as { registries: { hub: { size: number } } }).registries.hub.size;

/** Servers the per-request handler builds and closes without connecting them must not stay in the hub. */
describe('the live sessions of an HTTP application', () => {
  it('keeps no server per 2026-07-28 request once its stream or call ended, and sends nothing to dead ones', async () => {
    const app = await McpFactory.create(HubModule);
    await app.listen({ transport: 'http', port: 0 });
    const url = new URL(await app.getUrl());
    for (let i = 0; i < 20; i++) {
      const client = new Client({ name: `c${i}`, version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(url));
      await client.listen({ toolsListChanged: true });
      await client.callTool({ name: 'ping', arguments: {} });
      await client.close();
    }
    warnings.length = 0;
    app.tools.disable('ping');
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
    expect(liveServers(app)).toBe(0);
    await app.close();
  });
});
