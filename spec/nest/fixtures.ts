import 'reflect-metadata';
import {
  CallHandler,
  Catch,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  Inject,
  Injectable,
  Module,
  type NestInterceptor,
  type PipeTransform,
  Scope,
  SetMetadata,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  Controller,
  Get,
  NotFoundException,
  BadRequestException,
} from '@nestjs/common';
import { createParamDecorator } from '@nestjs/common';
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory, REQUEST, Reflector } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AsyncLocalStorage } from 'node:async_hooks';
import { catchError, delay, map, of, timeout } from 'rxjs';
import { Ctx, Param, Prompt, Resource, Tool, type Context } from 'mcp-reflect';
import { McpModule, type McpRequest } from 'mcp-reflect/nest';

/** A service shared by a REST controller and MCP tools: one instance, from Nest. */
@Injectable()
export class Greetings {
  readonly said: string[] = [];
  greet(name: string): string {
    this.said.push(name);
    return `Hello, ${name}`;
  }
}

export const GREETING_PREFIX = 'GREETING_PREFIX';
export const Roles = (...roles: string[]) => SetMetadata('roles', roles);

/** A roles guard on Nest's Reflector: reads @Roles() and the caller's scopes from the MCP Context. */
@Injectable()
export class RolesGuard implements CanActivate {
  static seen: string[] = [];
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    RolesGuard.seen.push(context.getType());
    const roles = this.reflector.getAllAndOverride<string[] | undefined>('roles', [context.getHandler(), context.getClass()]);
    if (!roles) return true;
    const mcp = context.switchToRpc().getContext<Context>();
    return roles.every((role) => mcp.auth?.scopes.includes(role));
  }
}

/** An RxJS interceptor: wraps the method's value. */
@Injectable()
export class ShoutInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((value: unknown) => String(value).toUpperCase()));
  }
}

/** Gives the method 100 ms, then answers 'too slow' (RxJS timeout + catchError), after a delay of its own. */
@Injectable()
export class PatienceInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(delay(5), timeout(100), catchError(() => of('too slow')));
  }
}

/** A request's async context, as a logger or a tracer keeps it (AsyncLocalStorage). */
export const requestStore = new AsyncLocalStorage<string>();

@Injectable()
export class TrimPipe implements PipeTransform {
  transform(value: unknown) {
    return typeof value === 'string' ? value.trim() : value;
  }
}

export class OutOfStock extends Error {}

@Catch(OutOfStock)
export class OutOfStockFilter implements ExceptionFilter {
  catch(error: OutOfStock) {
    return `sorry: ${error.message}`;
  }
}

@Injectable()
@UseGuards(RolesGuard)
export class GreetTools {
  constructor(
    @Inject(Greetings) private readonly greetings: Greetings,
    @Inject(GREETING_PREFIX) private readonly prefix: string,
  ) {}

  @Tool({ description: 'Greets someone' })
  greet(@Param('name') name: string): string {
    return `${this.prefix}${this.greetings.greet(name)}`;
  }

  @Tool()
  @UseInterceptors(ShoutInterceptor)
  shout(@Param('text') text: string): string {
    return text;
  }

  @Tool()
  @UseInterceptors(PatienceInterceptor)
  async patient(@Param('ms') ms: number): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return `${requestStore.getStore() ?? 'no store'} after ${ms} ms`;
  }

  @Tool()
  @UsePipes(TrimPipe)
  trimmed(@Param('text') text: string): string {
    return `[${text}]`;
  }

  @Tool()
  @Roles('admin')
  secret(): string {
    return 'the secret';
  }

  @Tool()
  @UseFilters(OutOfStockFilter)
  order(@Param('item') item: string): string {
    throw new OutOfStock(`no ${item} left`);
  }
}

/** Nest's HttpException family is client-facing; anything else stays masked. */
@Injectable()
export class FailingTools {
  @Tool()
  city(@Param('name') name: string): string {
    throw new NotFoundException(`No city named ${name}`);
  }

  @Tool()
  leak(): string {
    throw new Error('db password is hunter2');
  }

  @Resource('config://missing', { name: 'missing' })
  missing(): string {
    throw new NotFoundException('The configuration is gone');
  }

  @Prompt()
  picky(@Param('topic') topic: string): string {
    throw new BadRequestException([`topic ${topic} is not allowed`, 'choose another']);
  }
}

/** A Nest param decorator (createParamDecorator of @nestjs/common): reads the MCP Context from the execution context. */
export const Caller = createParamDecorator((fallback: string, context: ExecutionContext) => {
  return context.getType<string>() === 'mcp' ? context.switchToRpc().getContext<Context>().auth?.subject ?? fallback : fallback;
});

let built = 0;
/** How many WhoTools Nest has built so far. */
export const whoToolsBuilt = () => built;
/** Request-scoped: one instance per MCP request, with the request Nest binds to REQUEST. */
@Injectable({ scope: Scope.REQUEST })
export class WhoTools {
  readonly id = ++built;
  constructor(@Inject(REQUEST) private readonly request: McpRequest) {}

  @Tool()
  asking(@Param('question') question: string, @Caller('nobody') caller: string): string {
    return `${caller} asks: ${question}`;
  }

  @Tool()
  whoami(@Ctx() ctx: Context): string {
    return `${this.request.type} #${this.id} ${this.request.auth?.subject ?? 'anonymous'} same-context=${this.request.context === ctx}`;
  }
}

let rootsBuilt = 0;
/** Request-scoped with a guard: the guard is resolved for the request's context id. */
@Injectable({ scope: Scope.REQUEST })
@UseGuards(RolesGuard)
export class RootTools {
  readonly id = ++rootsBuilt;
  @Tool()
  @Roles('admin')
  rootWho(): string {
    return `root #${this.id}`;
  }
}

@Controller('greetings')
export class GreetingsController {
  constructor(@Inject(Greetings) private readonly greetings: Greetings) {}
  @Get()
  list(): string[] {
    return this.greetings.said;
  }
}

@Module({ providers: [Greetings, { provide: GREETING_PREFIX, useValue: '' }], exports: [Greetings, GREETING_PREFIX] })
export class SharedModule {}

@Module({ imports: [SharedModule], providers: [GreetTools, WhoTools, RootTools, FailingTools, RolesGuard], controllers: [GreetingsController] })
export class GreetModule {}

export function appModule(options: Parameters<typeof McpModule.forRoot>[0] = { name: 'nest-app', version: '1.0.0' }) {
  @Module({ imports: [McpModule.forRoot(options), GreetModule] })
  class AppModule {}
  return AppModule;
}

/** The application of `module` on Express or Fastify, prepared, listening on 127.0.0.1 (port 0); and its base URL. */
export async function listenNest(module: Type, platform: 'express' | 'fastify', prepare: (app: INestApplication) => void = () => {}) {
  const app =
    platform === 'express'
      ? await NestFactory.create(module, { logger: false, forceCloseConnections: true })
      : await NestFactory.create(module, new FastifyAdapter({ forceCloseConnections: true }), { logger: false });
  prepare(app);
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
  return { app, base };
}
