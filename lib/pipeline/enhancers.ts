import type { CanActivate, ExceptionFilter, McpInterceptor, PipeTransform } from '../interfaces';
import type { RequestHandle } from '../invocation';

/** An enhancer ready for use: one instance, or (request-scoped) one per request. */
export interface Resolved<T> {
  /** The class name, for messages and logs. */
  readonly name: string;
  /** The class (where `@Catch()` and custom metadata live). */
  readonly type?: Function;
  readonly instance?: T;
  readonly resolve?: (request: RequestHandle) => T | Promise<T>;
}

/** An exception filter with the error classes it handles (empty: every error). */
export interface ResolvedFilter {
  readonly filter: Resolved<ExceptionFilter>;
  readonly catches: readonly Function[];
}

/** Every enhancer of one component method, in running order (global, class, method). */
export interface MethodEnhancers {
  readonly guards: readonly Resolved<CanActivate>[];
  readonly interceptors: readonly Resolved<McpInterceptor>[];
  /** Pipes for every argument parameter (global, class and method `@UsePipes()`). */
  readonly pipes: readonly Resolved<PipeTransform>[];
  /** Pipes given on one parameter (`@Param('city', TrimPipe)`), by parameter index. */
  readonly parameterPipes: ReadonlyMap<number, readonly Resolved<PipeTransform>[]>;
  /** Filters, the most specific first (method, class, global). */
  readonly filters: readonly ResolvedFilter[];
  /** The scopes the caller's token must grant (`@Scopes()` of class and method), or undefined: none. */
  readonly requiredScopes?: readonly string[];
}

export const NO_ENHANCERS: MethodEnhancers = { guards: [], interceptors: [], pipes: [], parameterPipes: new Map(), filters: [] };

/** True when some enhancer is built per request (a request scope must then be opened per call). */
export function hasRequestScoped(enhancers: MethodEnhancers): boolean {
  const scoped = (r: Resolved<unknown>) => r.resolve !== undefined;
  return (
    enhancers.guards.some(scoped) ||
    enhancers.interceptors.some(scoped) ||
    enhancers.pipes.some(scoped) ||
    [...enhancers.parameterPipes.values()].some((list) => list.some(scoped)) ||
    enhancers.filters.some((f) => scoped(f.filter))
  );
}

/** The instance of `enhancer` for this request. */
export function instanceOf<T>(enhancer: Resolved<T>, request: RequestHandle | undefined): T | Promise<T> {
  return enhancer.instance ?? enhancer.resolve!(request!);
}
