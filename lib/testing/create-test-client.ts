import { Client, InMemoryTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { completeAuth } from '../context';
import type { GeneratedMetadata, McpAuth, ModuleImport } from '../interfaces';
import { McpApplication, McpFactory } from '../host';
import { TestingModule } from './testing-module';

export interface TestClientOptions {
  /** Client capabilities to declare, so a test can answer elicitation or sampling with `client.setRequestHandler(...)`. */
  capabilities?: ClientCapabilities;
  clientInfo?: { name: string; version: string };
  /** The types `mcp-reflect generate` wrote, when `target` is a module (see docs/types.md). */
  metadata?: GeneratedMetadata;
  /**
   * The protocol era to speak: `'2025-11-25'` (default, the `initialize` handshake) or `'2026-07-28'`
   * (the `server/discover` era).
   */
  protocolVersion?: '2025-11-25' | '2026-07-28';
  /**
   * The caller's identity (as a verified bearer token would give it), for `@Scopes()`, guards and `ctx.auth`:
   * e.g. `{ subject: 'alice', scopes: ['notes:read'] }`. Missing fields: client id `test-client`, no scopes,
   * no claims.
   */
  auth?: Partial<McpAuth>;
}

/** An SDK client connected in memory; `close()` also closes the application behind it. */
export type TestClient = Client & { readonly app: McpApplication };

/**
 * Bootstraps a module (or uses an application or compiled testing module) and connects a real SDK v2
 * client to it in memory.
 *
 * @example
 * const client = await createTestClient(AppModule);
 * const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
 * await client.close();
 */
export async function createTestClient(
  target: ModuleImport | McpApplication | TestingModule,
  options: TestClientOptions = {},
): Promise<TestClient> {
  const app =
    target instanceof McpApplication ? target : target instanceof TestingModule ? target.app : await McpFactory.create(target, options.metadata ? { metadata: options.metadata } : {});
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await app.connect(serverTransport, options.auth ? { auth: testAuth(options.auth) } : {});
  const modern = options.protocolVersion === '2026-07-28';
  const client = new Client(options.clientInfo ?? { name: 'mcp-reflect-test-client', version: '1.0.0' }, {
    capabilities: options.capabilities ?? {},
    ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  });
  try {
    await client.connect(clientTransport);
  } catch (error) {
    await app.close();
    throw error;
  }
  const closeClient = client.close.bind(client);
  Object.assign(client, {
    app,
    close: async () => {
      try {
        await closeClient();
      } finally {
        await app.close();
      }
    },
  });
  return client as TestClient;
}

function testAuth(auth: Partial<McpAuth>): McpAuth {
  return completeAuth(auth, 'test-client');
}
