import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { InMemoryTransport } from '@modelcontextprotocol/client';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import {
  McpController,
  McpStrategy,
  StreamableHttpTransport,
  Tool,
  type McpTransport,
  type McpTransportContext,
} from '@rekog/mcp-nest';
import * as z from 'zod';
import { bookText, type BenchSystem, type Listening } from '../system';
import { clientSdk } from '../lazy';

/**
 * @rekog/mcp-nest 2.x: tools are `@Tool` handlers on `@McpController` classes, served by an `McpStrategy`
 * (a NestJS microservice transport strategy) through the Nest RPC pipeline, validated with zod.
 *
 * A handler that returns anything but `{ content }` is JSON-stringified by mcp-nest (`'5'` would come back
 * as `"\"5\""`), so the handlers return `{ content: [...] }`, as mcp-nest's README does.
 */

const addShape = z.object({ a: z.number(), b: z.number() });
const bookShape = z.object({
  title: z.string().min(1).max(100),
  copies: z.number().int().min(1).max(10),
  genre: z.enum(['fiction', 'science', 'history']),
  note: z.string().optional(),
  authors: z.array(z.object({ first: z.string(), last: z.string(), born: z.number().int() })),
});
const extraShape = z.object({ n: z.number() });

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

@McpController()
class BenchController {
  @Tool({ name: 'add', description: 'Add two numbers', parameters: addShape })
  add(@Payload() { a, b }: z.infer<typeof addShape>) {
    return text(String(a + b));
  }

  @Tool({ name: 'book', description: 'Register a book', parameters: bookShape })
  book(@Payload() input: z.infer<typeof bookShape>) {
    return text(bookText(input));
  }
}

/** A controller with `count` trivial tools `tool_i({ n })`, decorated at runtime as TypeScript would. */
function extraController(count: number): Function {
  class ExtraTools {}
  for (let i = 0; i < count; i++) {
    const name = `tool_${i}`;
    // A distinct function per tool: mcp-nest/Nest keep the handler metadata on the function itself.
    Object.defineProperty(ExtraTools.prototype, name, {
      value: ({ n }: { n: number }) => text(String(n)),
      writable: true,
      configurable: true,
    });
    Reflect.defineMetadata('design:paramtypes', [Object], ExtraTools.prototype, name);
    Payload()(ExtraTools.prototype, name, 0);
    Tool({ name, description: `Trivial tool ${i}`, parameters: extraShape })(
      ExtraTools.prototype,
      name,
      Object.getOwnPropertyDescriptor(ExtraTools.prototype, name)!,
    );
  }
  McpController()(ExtraTools);
  return ExtraTools;
}

export function nestModule(extra: number): Type {
  @Module({ controllers: [BenchController, extraController(extra)] as never })
  class BenchModule {}
  return BenchModule;
}

export function nestStrategy(transports: McpTransport[]): McpStrategy {
  return new McpStrategy({ name: 'mcp-nest', version: '1.0.0', transports, logging: false });
}

/**
 * In-memory transport for mcp-nest. mcp-nest has no in-memory option, but its `McpTransport` interface is
 * public: this is its own `StdioTransport` (SDK `serveStdio` over mcp-nest's bound-server factory) with the
 * SDK v2 in-memory server transport in place of process stdin/stdout.
 */
class InMemoryMcpTransport implements McpTransport {
  readonly kind = 'stdio' as const;
  private handle?: StdioServerHandle;

  constructor(private readonly transport: InMemoryTransport) {}

  start(ctx: McpTransportContext): void {
    this.handle = serveStdio(
      (reqCtx) => ctx.createBoundServer({ transport: this.kind, stateless: false, era: reqCtx.era }),
      { transport: this.transport, onerror: (error) => ctx.logger.error('MCP in-memory transport error', error) },
    );
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }
}

async function listenHttp(statefulMode: boolean): Promise<Listening> {
  const strategy = nestStrategy([new StreamableHttpTransport({ statefulMode })]);
  const app = await NestFactory.create(nestModule(0), { logger: false });
  strategy.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy });
  await app.startAllMicroservices(); // mounts /mcp before listen(), as mcp-nest requires
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => app.close() };
}

export const mcpNest: BenchSystem = {
  name: 'mcp-nest',
  async inMemory(extra) {
    const { Client, InMemoryTransport } = clientSdk();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const strategy = nestStrategy([new InMemoryMcpTransport(serverTransport)]);
    const app = await NestFactory.createMicroservice(nestModule(extra), { strategy, logger: false });
    await app.listen();
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(clientTransport);
    return { client, transport: clientTransport, close: async () => (await client.close(), await app.close()) };
  },
  stdio: (extra) => ({ command: process.execPath, args: [require.resolve('../servers/mcp-nest.server'), String(extra)] }),
  /** mcp-nest's default StreamableHttpTransport: stateless, JSON responses, self-mounted on the Nest express adapter. */
  httpStateless: () => listenHttp(false),
  /** `statefulMode: true`: a server per `mcp-session-id` session, SSE responses (mcp-nest's default pairing). */
  httpStateful: () => listenHttp(true),
  async bootstrap(tools) {
    const module = nestModule(tools);
    const started = performance.now();
    // No transport: NestFactory builds the DI container and binds the handlers; listen() builds the tool table.
    const app = await NestFactory.createMicroservice(module, { strategy: nestStrategy([]), logger: false });
    await app.listen();
    const elapsed = performance.now() - started;
    await app.close();
    return elapsed;
  },
};
