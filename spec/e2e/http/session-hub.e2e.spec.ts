import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, McpFactory, McpModule, Module, Tool, type McpApplication } from 'mcp-reflect';
import { openSession } from '../../support/http-helpers';

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

describe('the standing GET stream', () => {
  it('answers with its headers at once, before any event (a client sees it open)', async () => {
    const app = await McpFactory.create(HubModule);
    await app.listen({ transport: 'http', port: 0 });
    const url = await app.getUrl();
    const session = await openSession(url);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 5_000);
    try {
      const response = await fetch(url, {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
    } finally {
      clearTimeout(timer);
      controller.abort();
      await app.close();
    }
  });
});
