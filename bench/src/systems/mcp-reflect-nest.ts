import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import {
  Injectable,
  Module,
  Scope,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
  type Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Args, Param, Tool } from 'mcp-reflect';
import { McpModule, McpService, type McpNestHttpOptions } from 'mcp-reflect/nest';
import type { Observable } from 'rxjs';
import { bookText, type BenchSystem, type Listening } from '../system';
import { clientSdk } from '../lazy';
import { BookInput } from './mcp-reflect-dto';
import { extraTools } from './mcp-reflect-extra';

/**
 * mcp-reflect inside a minimal Nest 11 application (`mcp-reflect/nest`): the same tool classes as the
 * mcp-reflect system (`@Tool()`, `@Param()`, the class-validator DTO), provided by a Nest `@Module()` from
 * `@nestjs/common` with Nest's `@Injectable()`, found by `McpModule.forRoot()` among the application's
 * providers; instances and enhancers are Nest's. In memory and on stdio from
 * `NestFactory.createApplicationContext()` (`McpService.connect()` / `.listen({ transport: 'stdio' })`); HTTP
 * on the Nest application's own Express server at /mcp, the way mcp-nest serves it.
 */

@Injectable()
class AddTools {
  @Tool({ description: 'Add two numbers' })
  add(@Param() a: number, @Param() b: number): string {
    return String(a + b);
  }
}

@Injectable()
class BookTools {
  @Tool({ description: 'Register a book' })
  book(@Args() input: BookInput): string {
    return bookText(input);
  }
}

@Injectable({ scope: Scope.REQUEST })
class ScopedTools {
  @Tool({ description: 'Add two numbers, on a request-scoped class' })
  addScoped(@Param() a: number, @Param() b: number): string {
    return String(a + b);
  }
}

/**
 * A Nest guard and a Nest interceptor doing what the mcp-reflect system's do (read the context, pass the call
 * on), written as Nest users write them: the interceptor returns `next.handle()`, an Observable.
 */
class AllowGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.getHandler().name.length > 0;
  }
}

class PassInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

@Injectable()
class EnhancedTools {
  @UseGuards(new AllowGuard())
  @UseInterceptors(new PassInterceptor())
  @Tool({ description: 'Add two numbers, with one Nest guard and one Nest interceptor' })
  addEnhanced(@Param() a: number, @Param() b: number): string {
    return String(a + b);
  }
}

/**
 * The application's root module: the benchmark tools (plus `extra` trivial ones) and `McpModule.forRoot()`;
 * `http`: the endpoint's options (served at /mcp when the application listens), false for none.
 */
export function reflectNestModule(extra: number, options: { scoped?: boolean; http?: McpNestHttpOptions | false } = {}): Type {
  const providers = [AddTools, BookTools, extraTools(extra, Injectable()), ...(options.scoped ? [ScopedTools, EnhancedTools] : [])];
  @Module({ imports: [McpModule.forRoot({ name: 'mcp-reflect-nest', version: '1.0.0', http: options.http ?? false })], providers: providers as Type[] })
  class BenchModule {}
  return BenchModule;
}

async function listenHttp(http: McpNestHttpOptions): Promise<Listening> {
  // Express, Nest's default platform; its JSON body parser reads the body, the endpoint takes it from there.
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
