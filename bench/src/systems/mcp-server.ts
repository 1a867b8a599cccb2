import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
import { bookText, type BenchSystem } from '../system';
import { clientSdk, httpServe } from '../lazy';

/** SDK v2 `McpServer` with zod schemas: the SDK's own high-level API. */
export function mcpServerFactory(extra: number): () => McpServer {
  const addShape = z.object({ a: z.number(), b: z.number() });
  const bookShape = z.object({
    title: z.string().min(1).max(100),
    copies: z.number().int().min(1).max(10),
    genre: z.enum(['fiction', 'science', 'history']),
    note: z.string().optional(),
    authors: z.array(z.object({ first: z.string(), last: z.string(), born: z.number().int() })),
  });
  const extraShape = z.object({ n: z.number() });
  return () => {
    const server = new McpServer({ name: 'mcp-server', version: '1.0.0' });
    server.registerTool('add', { description: 'Add two numbers', inputSchema: addShape }, async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    server.registerTool('book', { description: 'Register a book', inputSchema: bookShape }, async (input) => ({
      content: [{ type: 'text', text: bookText(input) }],
    }));
    for (let i = 0; i < extra; i++) {
      server.registerTool(`tool_${i}`, { description: `Trivial tool ${i}`, inputSchema: extraShape }, async ({ n }) => ({
        content: [{ type: 'text', text: String(n) }],
      }));
    }
    return server;
  };
}

export const mcpServer: BenchSystem = {
  name: 'McpServer+zod',
  async inMemory(extra) {
    const { Client, InMemoryTransport } = clientSdk();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(mcpServerFactory(extra), { transport: serverTransport });
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(clientTransport);
    return { client, transport: clientTransport, close: async () => (await client.close(), await handle.close()) };
  },
  httpStateless: () => httpServe().serveHttp(mcpServerFactory(0), true),
  httpStateful: () => httpServe().serveHttp(mcpServerFactory(0), false),
  async bootstrap(tools) {
    const started = performance.now();
    mcpServerFactory(tools)();
    return performance.now() - started;
  },
  stdio: (extra) => ({ command: process.execPath, args: [require.resolve('../servers/mcp-server.server'), String(extra)] }),
};
