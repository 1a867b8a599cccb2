import 'reflect-metadata';
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
import { Param, Tool } from 'mcp-reflect';
import { McpModule, type McpNestHttpOptions } from 'mcp-reflect/nest';
import type { Observable } from 'rxjs';
import { extraTools } from './mcp-reflect-extra';

/**
 * The minimal Nest application of the mcp-reflect-nest system, without its `book` tool (whose DTO style
 * differs: class-validator in the system, `@Field()` in the cold-start variant): tool classes provided by a
 * Nest `@Module()` with Nest's `@Injectable()`, found by `McpModule.forRoot()` among the providers.
 */

@Injectable()
class AddTools {
  @Tool({ description: 'Add two numbers' })
  add(@Param() a: number, @Param() b: number): string {
    return String(a + b);
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
 * The application's root module: the benchmark tools (`book`: the class given, plus `extra` trivial ones) and
 * `McpModule.forRoot()`; `http`: the endpoint's options (served at /mcp when the application listens), false
 * for none; `scoped` adds the add variants.
 */
export function nestAppModule(extra: number, options: { book: Function; scoped?: boolean; http?: McpNestHttpOptions | false }): Type {
  const providers = [AddTools, options.book, extraTools(extra, Injectable()), ...(options.scoped ? [ScopedTools, EnhancedTools] : [])];
  // The standalone system's tool classes are loaded in the same worker: they belong to another application.
  const mcp = McpModule.forRoot({ name: 'mcp-reflect-nest', version: '1.0.0', http: options.http ?? false, warnings: { unprovidedComponents: false } });
  @Module({ imports: [mcp], providers: providers as Type[] })
  class BenchModule {}
  return BenchModule;
}
