import type { Constructor, InjectionToken } from '../interfaces';
import { ErrorCode, McpReflectError } from '../errors';
import { describeToken } from '../errors/describe';

export interface ModuleRefGetOptions {
  /** true (default): only this module's own providers; false: any module of the application. */
  strict?: boolean;
}

/**
 * Inject it to look providers up at runtime.
 *
 * @example
 * @Injectable({ scope: Scope.REQUEST })
 * class ReportTools {
 *   constructor(private readonly moduleRef: ModuleRef) {}
 *   @Tool() async report() {
 *     const repo = await this.moduleRef.resolve(RequestRepo); // this request's instance
 *   }
 * }
 */
export abstract class ModuleRef {
  /** A singleton provider. Throws for request-scoped and transient providers: use `resolve()`. */
  abstract get<T = unknown>(token: InjectionToken | (abstract new (...args: any[]) => T), options?: ModuleRefGetOptions): T;
  /**
   * Any provider: the current request's instance of a request-scoped provider when called from a
   * request-scoped class during its call (a fresh scope elsewhere), a new instance of a transient provider,
   * the singleton otherwise.
   */
  abstract resolve<T = unknown>(
    token: InjectionToken | (abstract new (...args: any[]) => T),
    options?: ModuleRefGetOptions,
  ): Promise<T>;
  /** A new instance of a class that is not a provider, its constructor dependencies injected from this module. */
  abstract create<T>(cls: Constructor<T>): Promise<T>;
}

export function moduleRefError(token: InjectionToken, module: string, reason: 'missing' | 'scoped'): McpReflectError {
  const name = describeToken(token);
  if (reason === 'scoped') {
    return new McpReflectError(
      ErrorCode.ScopedProvider,
      `Cannot get ${name}: it is request-scoped or transient, so there is no single instance to return.\n` +
        `Fix: inject it into a provider of the same or a shorter-lived scope, or call await moduleRef.resolve(${name}) during a call.`,
    );
  }
  return new McpReflectError(
    ErrorCode.ProviderNotFound,
    `Cannot get ${name} from ${module}: no provider with that token is visible there.\n` +
      `Fix: add it to the providers of ${module}, or pass { strict: false } to look in every module.`,
  );
}
