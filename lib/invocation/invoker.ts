import type { RequestHandle } from './method-host';

/**
 * What a component runs at the end of its one pipeline, once its arguments are validated and bound. A class
 * method is one kind ({@link methodInvoker}); a remote server's tool or an OpenAPI operation is another: a new
 * invoker, never a new call path (scopes, guards, interceptors, validation, pipes and filters stay the
 * pipeline's).
 *
 * @example
 * const invoker = methodInvoker(Calculator, 'add', new Calculator(), undefined);
 * invoker.invoke([2, 3], undefined); // 5
 */
export interface Invoker {
  /** What serves it, as `ExecutionContext.getClass()` shows it and messages name it. */
  readonly target: Function;
  /** The function it runs, as `ExecutionContext.getHandler()` shows it (decorator metadata is read from it). */
  readonly handler: Function;
  /** It needs the handle of the call's request scope (a request-scoped instance is resolved in it). */
  readonly perRequest: boolean;
  /**
   * Runs it with its argument list; a value, or a promise of one. `request`: the handle the host opened for
   * this call (given when `perRequest`); the invoker passes it back to the host that made it, untouched.
   */
  invoke(values: unknown[], request: RequestHandle | undefined): unknown;
}

/** A class method: on the singleton instance, or on the request's instance the host resolves. */
export function methodInvoker(
  target: Function,
  method: string,
  instance: object | undefined,
  resolve: ((request: RequestHandle) => object | Promise<object>) | undefined,
): Invoker {
  const handler = (target.prototype as Record<string, (...args: unknown[]) => unknown>)[method];
  if (instance !== undefined || resolve === undefined) {
    return { target, handler, perRequest: false, invoke: (values) => handler.apply(instance, values) };
  }
  return {
    target,
    handler,
    perRequest: true,
    invoke: (values, request) => {
      const resolved = resolve(request!);
      return resolved instanceof Promise ? resolved.then((own) => handler.apply(own, values)) : handler.apply(resolved, values);
    },
  };
}

/** A provider's component: its handler, called with the bound argument list (lib/invocation/provided.ts). */
export function providedInvoker(target: Function, handler: (...args: unknown[]) => unknown): Invoker {
  return { target, handler, perRequest: false, invoke: (values) => handler(...values) };
}
