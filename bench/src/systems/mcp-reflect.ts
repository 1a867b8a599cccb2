import 'reflect-metadata';
import {
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Scope,
  Tool,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type McpInterceptor,
} from 'mcp-reflect';
import { RedisEventStore } from 'mcp-reflect/redis';
import type { BenchSystem } from '../system';
import { clientSdk } from '../lazy';
import { precompiledValidators } from '../precompiled';
import { BookTools } from './mcp-reflect-book';
import { AddTools, extraTools } from './mcp-reflect-extra';

/** Declared when first used, as enhancedTools() (a class declared and not provided is warned about at bootstrap). */
function scopedTools(): Function {
  @Injectable({ scope: Scope.REQUEST })
  class ScopedTools {
    @Tool({ description: 'Add two numbers, on a request-scoped class' })
    addScoped(@Param() a: number, @Param() b: number): string {
      return String(a + b);
    }
  }
  return ScopedTools;
}

/** A guard and an interceptor that do what most do: read the context, and await the call. */
class AllowGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.name.length > 0;
  }
}

class PassInterceptor implements McpInterceptor {
  async intercept(_context: ExecutionContext, next: CallHandler): Promise<unknown> {
    return next.handle();
  }
}

/** Declared when first used: a baseline revision older than the pipeline has no @UseGuards() to declare it with. */
function enhancedTools(): Function {
  @Injectable()
  class EnhancedTools {
    @UseGuards(new AllowGuard())
    @UseInterceptors(new PassInterceptor())
    @Tool({ description: 'Add two numbers, with one guard and one interceptor' })
    addEnhanced(@Param() a: number, @Param() b: number): string {
      return String(a + b);
    }
  }
  return EnhancedTools;
}

export function reflectModule(extra: number, scoped = false): Function {
  const providers = [AddTools, BookTools, extraTools(extra), ...(scoped ? [scopedTools(), enhancedTools()] : [])];
  @Module({ imports: [McpModule.forRoot({ name: 'mcp-reflect', version: '1.0.0' })], providers: providers as never })
  class BenchModule {}
  return BenchModule;
}

export const mcpReflect: BenchSystem = {
  name: 'mcp-reflect',
  /** `scoped` adds `addScoped` (request-scoped class) and `addEnhanced` (a guard and an interceptor), for the variants table only. */
  async inMemory(extra, options) {
    const app = await McpFactory.create(reflectModule(extra, options?.scoped));
    const { Client, InMemoryTransport } = clientSdk();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await app.connect(serverTransport);
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(clientTransport);
    return { client, transport: clientTransport, close: async () => (await client.close(), await app.close()) };
  },
  stdio: (extra) => ({ command: process.execPath, args: [require.resolve('../servers/mcp-reflect.server'), String(extra)] }),
  async httpStateless() {
    const app = await McpFactory.create(reflectModule(0));
    // BENCH_AUTH_ISSUER / BENCH_AUTH_JWKS: the same server as an OAuth resource server (the bearer-auth row).
    const issuer = process.env.BENCH_AUTH_ISSUER;
    const jwksUri = process.env.BENCH_AUTH_JWKS;
    await app.listen({ transport: 'http', port: 0, stateless: true, ...(issuer ? { auth: { issuer, jwksUri } } : {}) });
    return { url: await app.getUrl(), close: () => app.close() };
  },
  async httpStateful() {
    const app = await McpFactory.create(reflectModule(0));
    // BENCH_REDIS_URL: the same server with its SSE events kept in Redis (the event-store row).
    const redisUrl = process.env.BENCH_REDIS_URL;
    const Redis = redisUrl ? (require('ioredis') as typeof import('ioredis')).Redis : undefined;
    // BENCH_NO_EVENTS: the same server keeping no events for resumption (`eventStore: false`, a row of (e)).
    const eventStore = Redis && redisUrl ? new RedisEventStore(new Redis(redisUrl)) : process.env.BENCH_NO_EVENTS ? (false as const) : undefined;
    await app.listen({ transport: 'http', port: 0, maxSessions: 100_000, maxSessionsPerClient: 100_000, ...(eventStore !== undefined ? { eventStore } : {}) });
    return { url: await app.getUrl(), close: () => app.close() };
  },
  async bootstrap(tools, options) {
    const module = reflectModule(tools);
    const validators = options?.precompiled ? precompiledValidators() : undefined;
    const started = performance.now();
    const app = await McpFactory.create(module, { ...(validators ? { validators } : {}), ...(options?.onFirstUse ? { compileValidators: 'onFirstUse' as const } : {}) });
    const elapsed = performance.now() - started;
    await app.close();
    return elapsed;
  },
};
