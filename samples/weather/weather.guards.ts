import { Injectable, Reflector, type CanActivate, type ExecutionContext } from 'mcp-reflect';
import { RateLimitGuard } from 'mcp-reflect/builtins';
import { ConfigService } from './config.module';

/** `@RequireRole('admin')` on a tool (or a class): only callers with that role see and call it. */
export const RequireRole = Reflector.createDecorator<string>();

/**
 * The caller's role: from verified auth (`role` claim) when the server runs with authorization, else the
 * `X-Weather-Role` header over HTTP, else `WEATHER_ROLE` from the environment (stdio). A sample, not a
 * security boundary: without auth, a header is whatever the client says.
 */
@Injectable()
export class RoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: ConfigService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const needed = this.reflector.getAllAndOverride(RequireRole, [context.getHandler(), context.getClass()]);
    return needed === undefined || this.roleOf(context) === needed;
  }

  private roleOf(context: ExecutionContext): string {
    const claimed = context.auth?.claims.role;
    if (typeof claimed === 'string') return claimed;
    return context.context.headers?.['x-weather-role'] ?? this.config.role;
  }
}

/**
 * Each session may ask 30 questions in a burst, then one a second (a RateLimitError says when to try again).
 * A class rather than `new RateLimitGuard(...)` in the decorator: the container builds one per application,
 * so two applications in one process (tests) keep their own buckets.
 */
@Injectable()
export class WeatherRateLimit extends RateLimitGuard {
  constructor() {
    super({ capacity: 30, refillPerSecond: 1 });
  }
}
