import type { Context } from '../context';

/** A class with decorated methods, as the container provides it: one instance, or one per request. */
export interface MethodHost {
  readonly target: Function;
  /** The instance serving every call (singletons). */
  readonly instance?: object;
  /** For request-scoped classes: builds this request's instance and runs the call inside its scope. */
  readonly scoped?: ScopedHost;
}

export type ScopedHost = (context: Context) => {
  readonly instance: object | Promise<object>;
  run<T>(fn: () => T): T;
};
