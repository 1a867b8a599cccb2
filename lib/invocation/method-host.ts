import type { Context } from '../context';
import type { ComponentTransforms } from '../interfaces';
import type { GeneratedTypes } from '../metadata';
import type { ProvidedMethods } from './provided';

/** One request's scope of request-scoped instances: everything of the request runs inside `run()`. */
export interface RequestHandle {
  run<T>(fn: () => T): T;
}

/** Opens the request scope of one call, seeded with its Context. */
export type RequestScopeOpener = (context: Context) => RequestHandle;

/** A class with decorated methods, as the container provides it: one instance, or one per request. */
export interface MethodHost {
  readonly target: Function;
  /** The instance serving every call (singletons). */
  readonly instance?: object;
  /** For request-scoped classes: this request's instance, built in the request's scope. */
  readonly resolve?: (request: RequestHandle) => object | Promise<object>;
  /** The generated types of the application serving it (`GeneratedTypes.none` without a generated module). */
  readonly types: GeneratedTypes;
  /** The namespace of the module providing it (`McpModule.forFeature({ namespace })`): its components are served prefixed. */
  readonly namespace?: string;
  /** The transforms of that module (`McpModule.forFeature({ transforms })`), keyed by declared names. */
  readonly transforms?: ComponentTransforms;
  /**
   * A provider's components (a proxied server's, an OpenAPI document's, a hand-written `McpProvider`'s): described
   * as data, in place of decorated methods of `target` (lib/invocation/provided.ts).
   */
  readonly provided?: ProvidedMethods;
}
