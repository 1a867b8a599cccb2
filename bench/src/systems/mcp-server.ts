import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { BenchSystem } from '../system';
import { mcpServerFactory } from './mcp-server-tools';
import { clientSdk, httpServe } from '../lazy';

export { mcpServerFactory };

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
