import type { ArgumentMetadata, CanActivate, ExceptionFilter, ExecutionContext, McpInterceptor, PipeTransform } from '../../interfaces';
import type { RequestHandle } from '../../invocation';
import type { ComponentEnhancers } from '../../pipeline';

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

/**
 * The standalone host's enhancers of one method: resolved lists, run in order (guards, interceptors outermost
 * first, pipes of every argument then the parameter's own, the most specific filter that catches the error).
 */
export class EnhancerChain implements ComponentEnhancers {
  readonly requiredScopes?: readonly string[];
  readonly guards: boolean;
  readonly interceptors: boolean;
  readonly filters: boolean;
  readonly pipes: boolean;
  readonly requestScoped: boolean;
  /** The pipes of each parameter that has some, built on first use. */
  private readonly pipesOf = new Map<number, readonly Resolved<PipeTransform>[]>();
  private unguarded?: EnhancerChain;

  constructor(private readonly lists: MethodEnhancers) {
    this.requiredScopes = lists.requiredScopes;
    this.guards = lists.guards.length > 0;
    this.interceptors = lists.interceptors.length > 0;
    this.filters = lists.filters.length > 0;
    this.pipes = lists.pipes.length > 0 || lists.parameterPipes.size > 0;
    const scoped = (r: Resolved<unknown>) => r.resolve !== undefined;
    this.requestScoped =
      lists.guards.some(scoped) ||
      lists.interceptors.some(scoped) ||
      lists.pipes.some(scoped) ||
      [...lists.parameterPipes.values()].some((pipes) => pipes.some(scoped)) ||
      lists.filters.some((f) => scoped(f.filter));
  }

  hasPipes(index: number): boolean {
    return this.lists.pipes.length > 0 || (this.lists.parameterPipes.get(index)?.length ?? 0) > 0;
  }

  async canActivate(execution: ExecutionContext, request: RequestHandle | undefined): Promise<boolean> {
    for (const guard of this.lists.guards) {
      const instance = guard.instance ?? (await guard.resolve!(request!));
      const verdict = instance.canActivate(execution);
      if (!(isPromiseLike(verdict) ? await verdict : verdict)) return false;
    }
    return true;
  }

  intercept(execution: ExecutionContext, request: RequestHandle | undefined, next: () => Promise<unknown>): unknown {
    return this.around(0, execution, request, next);
  }

  /** Interceptor `index` around the rest. */
  private around(index: number, execution: ExecutionContext, request: RequestHandle | undefined, last: () => Promise<unknown>): unknown {
    const { interceptors } = this.lists;
    if (index === interceptors.length) return last();
    const handler = {
      handle: (): Promise<unknown> => {
        try {
          return Promise.resolve(this.around(index + 1, execution, request, last));
        } catch (error) {
          return Promise.reject(error);
        }
      },
    };
    const entry = interceptors[index];
    if (entry.instance) return entry.instance.intercept(execution, handler);
    return Promise.resolve(entry.resolve!(request!)).then((interceptor) => interceptor.intercept(execution, handler));
  }

  async transform(index: number, value: unknown, metadata: ArgumentMetadata, request: RequestHandle | undefined): Promise<unknown> {
    let pipes = this.pipesOf.get(index);
    if (!pipes) this.pipesOf.set(index, (pipes = [...this.lists.pipes, ...(this.lists.parameterPipes.get(index) ?? [])]));
    let current = value;
    for (const pipe of pipes) current = await (await instanceOf(pipe, request)).transform(current, metadata);
    return current;
  }

  async recover(error: unknown, execution: ExecutionContext, request: RequestHandle | undefined): Promise<{ value: unknown } | undefined> {
    const entry = this.lists.filters.find((f) => f.catches.length === 0 || f.catches.some((type) => error instanceof (type as never)));
    if (!entry) return undefined;
    return { value: await (await instanceOf(entry.filter, request)).catch(error, execution) };
  }

  withoutGuards(): ComponentEnhancers {
    if (!this.guards) return this;
    return (this.unguarded ??= new EnhancerChain({ ...this.lists, guards: [] }));
  }
}

/** The instance of `enhancer` for this request. */
function instanceOf<T>(enhancer: Resolved<T>, request: RequestHandle | undefined): T | Promise<T> {
  return enhancer.instance ?? enhancer.resolve!(request!);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
