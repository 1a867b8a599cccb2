import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Injectable, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Args, Tool } from 'mcp-reflect';
import { McpService, type McpNestHttpOptions } from 'mcp-reflect/nest';
import { bookText, type BenchSystem, type Listening } from '../system';
import { clientSdk } from '../lazy';
import { BookInput } from './mcp-reflect-dto';
import { nestAppModule } from './mcp-reflect-nest-app';

/**
 * mcp-reflect inside a minimal Nest 11 application (`mcp-reflect/nest`): the same tool classes as the
 * mcp-reflect system (`@Tool()`, `@Param()`, the class-validator DTO), provided by a Nest `@Module()` from
 * `@nestjs/common` with Nest's `@Injectable()` (mcp-reflect-nest-app.ts), found by `McpModule.forRoot()` among
 * the application's providers; instances and enhancers are Nest's. In memory and on stdio from
 * `NestFactory.createApplicationContext()` (`McpService.connect()` / `.listen({ transport: 'stdio' })`); HTTP
 * on the Nest application's own Express server at /mcp, ahead of Express (or, in (d), also as a route).
 */

@Injectable()
class BookTools {
  @Tool({ description: 'Register a book' })
  book(@Args() input: BookInput): string {
    return bookText(input);
  }
}

/** The application's root module with the class-validator `book` (see `nestAppModule`). */
export function reflectNestModule(extra: number, options: { scoped?: boolean; http?: McpNestHttpOptions | false } = {}): Type {
  return nestAppModule(extra, { ...options, book: BookTools });
}

async function listenHttp(options: McpNestHttpOptions): Promise<Listening> {
  // Express, Nest's default platform. By default the endpoint answers ahead of it (`mount: 'server'`, where
  // mcp-nest mounts its handler too); BENCH_NEST_MOUNT=route serves it as a route of the application (Nest's
  // router and JSON body parser in front), measured beside it in (d).
  const http = { ...options, mount: process.env.BENCH_NEST_MOUNT === 'route' ? 'route' : 'server' } as const;
  const app = await NestFactory.create(reflectNestModule(0, { http }), { logger: false, forceCloseConnections: true });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => app.close() };
}

export const mcpReflectNest: BenchSystem = {
  name: 'mcp-reflect-nest',
  /** `scoped` adds `addScoped` (a Nest request-scoped provider) and `addEnhanced` (a Nest guard and interceptor), for the variants only. */
  async inMemory(extra, options) {
    const app = await NestFactory.createApplicationContext(reflectNestModule(extra, { scoped: options?.scoped }), { logger: false });
    const { Client, InMemoryTransport } = clientSdk();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await app.get(McpService).connect(serverTransport);
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(clientTransport);
    return { client, transport: clientTransport, close: async () => (await client.close(), await app.close()) };
  },
  stdio: (extra) => ({ command: process.execPath, args: [require.resolve('../servers/mcp-reflect-nest.server'), String(extra)] }),
  httpStateless: () => listenHttp({ stateless: true }),
  httpStateful: () => listenHttp({ maxSessions: 100_000, maxSessionsPerClient: 100_000 }),
  async bootstrap(tools) {
    const module = reflectNestModule(tools);
    const started = performance.now();
    // Nest builds the container and the providers; McpService builds the MCP application on bootstrap.
    const app = await NestFactory.createApplicationContext(module, { logger: false });
    const elapsed = performance.now() - started;
    await app.close();
    return elapsed;
  },
};
