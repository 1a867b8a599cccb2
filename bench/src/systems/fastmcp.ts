import { createServer } from 'node:net';
import { FastMCP, FastMCPSession, type FastMCPSessionAuth, type Logger, type Tool } from 'fastmcp';
import * as z from 'zod';
import { bookText, type BenchSystem, type Listening } from '../system';
import { clientSdk } from '../lazy';

/**
 * fastmcp (punkpeye/fastmcp, TypeScript): `addTool({ parameters: zod, execute })` on a `FastMCP` instance,
 * validated through Standard Schema, served by an SDK v1 (`@modelcontextprotocol/sdk`) `Server` per session;
 * its HTTP transport is mcp-proxy's `startHTTPServer` (which itself runs on SDK v2).
 *
 * fastmcp logs through `console` by default (info lines per HTTP session); the bench gives it a silent logger.
 */
const silent: Logger = { debug() {}, error() {}, info() {}, log() {}, warn() {} };

const addShape = z.object({ a: z.number(), b: z.number() });
const bookShape = z.object({
  title: z.string().min(1).max(100),
  copies: z.number().int().min(1).max(10),
  genre: z.enum(['fiction', 'science', 'history']),
  note: z.string().optional(),
  authors: z.array(z.object({ first: z.string(), last: z.string(), born: z.number().int() })),
});
const extraShape = z.object({ n: z.number() });

type AnyTool = Tool<FastMCPSessionAuth, any>;

function fastmcpTools(extra: number): AnyTool[] {
  const tools: AnyTool[] = [
    {
      name: 'add',
      description: 'Add two numbers',
      parameters: addShape,
      execute: async ({ a, b }: z.infer<typeof addShape>) => String(a + b),
    },
    {
      name: 'book',
      description: 'Register a book',
      parameters: bookShape,
      execute: async (input: z.infer<typeof bookShape>) => bookText(input),
    },
  ];
  for (let i = 0; i < extra; i++) {
    tools.push({
      name: `tool_${i}`,
      description: `Trivial tool ${i}`,
      parameters: extraShape,
      execute: async ({ n }: z.infer<typeof extraShape>) => String(n),
    });
  }
  return tools;
}

/**
 * A FastMCP server with the benchmark tools. `ping` off: fastmcp pings every 5 s by default on HTTP-style
 * sessions (and `connect()` builds those), off by default on stdio; the in-memory session is stdio-like.
 */
export function fastmcpServer(extra: number, ping = true): FastMCP {
  const server = new FastMCP({ name: 'fastmcp', version: '1.0.0', logger: silent, ...(ping ? {} : { ping: { enabled: false } }) });
  server.addTools(fastmcpTools(extra));
  return server;
}

/** fastmcp cannot report the port it bound (`start()` keeps the http.Server private), so take a free one first. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function listenHttp(stateless: boolean): Promise<Listening> {
  const server = fastmcpServer(0);
  const port = await freePort();
  await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', stateless } });
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => server.stop() };
}

export const fastmcp: BenchSystem = {
  name: 'fastmcp',
  async inMemory(extra) {
    const server = fastmcpServer(extra, false);
    const { Client, InMemoryTransport } = clientSdk();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'bench', version: '1.0.0' });
    // FastMCP.connect() takes an SDK v1 `Transport`; the SDK v2 in-memory transport has the same shape
    // (start/send/close/onmessage/onclose/onerror). connect() waits for the client's initialize, hence together.
    const [session] = await Promise.all([server.connect(serverTransport as never), client.connect(clientTransport)]);
    return { client, transport: clientTransport, close: async () => (await client.close(), await session.close()) };
  },
  stdio: (extra) => ({ command: process.execPath, args: [require.resolve('../servers/fastmcp.server'), String(extra)] }),
  /** `httpStream` with `stateless: true`: a fresh session (SDK v1 Server) per request; SSE responses (fastmcp's default). */
  httpStateless: () => listenHttp(true),
  /** `httpStream` default: `mcp-session-id` sessions. mcp-proxy `console.log`s a line per session SSE stream (not configurable). */
  httpStateful: () => listenHttp(false),
  /**
   * FastMCP builds its SDK `Server` and tool handlers per session, lazily (on `start()`/`connect()`), so a
   * bare `new FastMCP` + `addTools` would measure almost nothing. "Ready" here is what `start({ transportType:
   * 'stdio' })` builds before it touches stdin: the FastMCP instance, its tools, and one `FastMCPSession`.
   */
  async bootstrap(tools) {
    const list = fastmcpTools(tools);
    const started = performance.now();
    const server = new FastMCP({ name: 'fastmcp', version: '1.0.0', logger: silent });
    server.addTools(list); // validates each tool's schema
    const session = new FastMCPSession({
      name: 'fastmcp',
      version: '1.0.0',
      logger: silent,
      tools: list,
      prompts: [],
      resources: [],
      resourcesTemplates: [],
      transportType: 'stdio',
    });
    const elapsed = performance.now() - started;
    await session.close();
    return elapsed;
  },
};
