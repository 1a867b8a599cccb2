import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import Ajv2020 from 'ajv/dist/2020';
import { ADD_SCHEMA, BOOK_SCHEMA, EXTRA_SCHEMA, bookText, type BenchSystem } from '../system';
import { clientSdk, httpServe } from '../lazy';

type Handler = (args: any) => string;

/**
 * The limit: SDK v2 low-level `Server`, hand-written JSON Schemas, ajv validators compiled once, a
 * precomputed tools/list. What a careful hand-written server costs; every other system is measured against it.
 */
export function limitServerFactory(extra: number): () => Server {
  const ajv = new Ajv2020({ strict: false });
  const tools = [
    { name: 'add', description: 'Add two numbers', inputSchema: ADD_SCHEMA },
    { name: 'book', description: 'Register a book', inputSchema: BOOK_SCHEMA },
    ...Array.from({ length: extra }, (_, i) => ({ name: `tool_${i}`, description: `Trivial tool ${i}`, inputSchema: EXTRA_SCHEMA })),
  ];
  const handlers = new Map<string, { validate: (v: unknown) => boolean; run: Handler }>();
  const extraValidate = ajv.compile(EXTRA_SCHEMA);
  handlers.set('add', { validate: ajv.compile(ADD_SCHEMA), run: (a) => String(a.a + a.b) });
  handlers.set('book', { validate: ajv.compile(BOOK_SCHEMA), run: (a) => bookText(a) });
  for (let i = 0; i < extra; i++) handlers.set(`tool_${i}`, { validate: extraValidate, run: (a) => String(a.n) });
  const list = { tools };
  return () => {
    const server = new Server({ name: 'limit', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => list as never);
    server.setRequestHandler('tools/call', async (request) => {
      const handler = handlers.get(request.params.name);
      if (!handler) throw new Error(`Unknown tool ${request.params.name}`);
      const args = request.params.arguments ?? {};
      if (!handler.validate(args)) return { content: [{ type: 'text', text: 'Invalid arguments' }], isError: true };
      return { content: [{ type: 'text', text: handler.run(args) }] };
    });
    return server;
  };
}

export const limit: BenchSystem = {
  name: 'limit',
  async inMemory(extra) {
    const { Client, InMemoryTransport } = clientSdk();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(limitServerFactory(extra), { transport: serverTransport });
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(clientTransport);
    return { client, transport: clientTransport, close: async () => (await client.close(), await handle.close()) };
  },
  httpStateless: () => httpServe().serveHttp(limitServerFactory(0), true),
  httpStateful: () => httpServe().serveHttp(limitServerFactory(0), false),
  async bootstrap(tools) {
    const started = performance.now();
    limitServerFactory(tools)();
    return performance.now() - started;
  },
  stdio: (extra) => ({ command: process.execPath, args: [require.resolve('../servers/limit.server'), String(extra)] }),
};
