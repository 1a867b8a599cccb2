import {
  Catch,
  Injectable,
  InvalidArgumentsError,
  Reflector,
  ToolError,
  createParamDecorator,
  type ArgumentMetadata,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type McpInterceptor,
  type McpMiddleware,
  type MiddlewareContext,
  type NextMiddleware,
  type PipeTransform,
} from 'mcp-reflect';

/** Who is calling: in this sample the client's name is the user (with auth, read `context.auth`). */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext) => context.context.client.name ?? 'anonymous');

/** `@Roles('editor')` on a class or method: the roles allowed to use it. */
export const Roles = Reflector.createDecorator<string[]>();

/** Users and their roles (a real server would look them up). */
@Injectable()
export class Directory {
  private readonly roles: Record<string, string[]> = { ada: ['reader', 'editor'], bob: ['reader'] };
  rolesOf(user: string): string[] {
    return this.roles[user] ?? [];
  }
}

/** Lets a caller use a component when it has one of the roles `@Roles()` names (method first, then class). */
@Injectable()
export class RoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly directory: Directory,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const needed = this.reflector.getAllAndOverride(Roles, [context.getHandler(), context.getClass()]);
    if (!needed) return true;
    const user = context.context.client.name ?? 'anonymous';
    return this.directory.rolesOf(user).some((role) => needed.includes(role));
  }
}

/** Trims a string argument and refuses a blank one. */
export class TrimPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    const trimmed = value.trim();
    if (trimmed === '') throw new InvalidArgumentsError([`${String(metadata.data)}: must not be blank`]);
    return trimmed;
  }
}

/** Thrown by the store; the filter below turns it into an answer the model can act on. */
export class NoteNotFound extends Error {
  constructor(readonly id: number) {
    super(`note ${id} not found`);
  }
}

@Catch(NoteNotFound)
export class NoteNotFoundFilter implements ExceptionFilter<NoteNotFound> {
  catch(error: NoteNotFound): never {
    throw new ToolError(`There is no note ${error.id}: call list_notes to see the ids.`);
  }
}

/** Adds how long the call took to what the method returned. */
export class TimingInterceptor implements McpInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<unknown> {
    const started = performance.now();
    const value = await next.handle();
    console.error(`${context.method} ${context.name}: ${(performance.now() - started).toFixed(1)} ms`);
    return value;
  }
}

/** Counts requests per MCP method, lists included. */
@Injectable()
export class RequestCounter implements McpMiddleware {
  readonly counts = new Map<string, number>();

  async onRequest(context: MiddlewareContext, next: NextMiddleware): Promise<unknown> {
    this.counts.set(context.method, (this.counts.get(context.method) ?? 0) + 1);
    return next();
  }
}
