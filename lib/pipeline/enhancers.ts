import type { ArgumentMetadata, ExecutionContext } from '../interfaces';
import type { RequestHandle } from '../invocation';

/**
 * What the pipeline asks of one component's enhancers, whoever supplies them: the standalone host's resolved
 * guards, interceptors, pipes and filters ({@link EnhancerChain}), or another host's own (a NestJS host runs
 * Nest's). What it has is decided at bootstrap (the pipeline leaves out the stages it does not have); per
 * call the pipeline asks: may the caller see it, may it run (`canActivate`), what wraps the call
 * (`intercept`), what an argument becomes (`transform`), what an error becomes (`recover`).
 *
 * `request` is the handle the host's `RequestScopeOpener` opened for this call (when `requestScoped`): the pipeline
 * passes it back untouched, so only the host that opened it reads it.
 */
export interface ComponentEnhancers {
  /** The scopes the caller's token must grant (`@Scopes()`), or undefined: none. Checked by the pipeline. */
  readonly requiredScopes?: readonly string[];
  /** Some guard decides per caller: `canActivate` is asked for calls and (with `phase: 'list'`) for lists. */
  readonly guards: boolean;
  /** Something wraps the call: `intercept` is asked. */
  readonly interceptors: boolean;
  /** Something answers errors: `recover` is asked. */
  readonly filters: boolean;
  /** Some parameter's value goes through `transform` (see `hasPipes`). */
  readonly pipes: boolean;
  /** Some enhancer is built per request: the pipeline opens a request scope for every call. */
  readonly requestScoped: boolean;
  /** Every guard lets the call (or the list entry) through; the first that says no ends it; what one throws propagates. */
  canActivate(execution: ExecutionContext, request: RequestHandle | undefined): Promise<boolean>;
  /** Runs `next` (the rest of the call) inside whatever wraps it; a value or a promise of one. */
  intercept(execution: ExecutionContext, request: RequestHandle | undefined, next: () => Promise<unknown>): unknown;
  /** Whether the value of argument parameter `index` goes through `transform` (asked once, at bootstrap). */
  hasPipes(index: number): boolean;
  /** The value of parameter `index` after its pipes. */
  transform(index: number, value: unknown, metadata: ArgumentMetadata, request: RequestHandle | undefined): Promise<unknown>;
  /**
   * The answer a filter gives for `error` (`{ value }`, converted like the method's value), or undefined when
   * none handles it. What a filter throws propagates, and is answered as a failure of the call.
   */
  recover(error: unknown, execution: ExecutionContext, request: RequestHandle | undefined): Promise<{ value: unknown } | undefined>;
  /** The same enhancers without the guards (a call the guards already let through, such as a task's run). */
  withoutGuards(): ComponentEnhancers;
}

/** Enhancers that do nothing: a method without guards, interceptors, pipes, filters or `@Scopes()`. */
export const NO_ENHANCERS: ComponentEnhancers = Object.freeze({
  guards: false,
  interceptors: false,
  filters: false,
  pipes: false,
  requestScoped: false,
  canActivate: async () => true,
  intercept: (_execution: unknown, _request: unknown, next: () => Promise<unknown>) => next(),
  hasPipes: () => false,
  transform: async (_index: number, value: unknown) => value,
  recover: async () => undefined,
  withoutGuards: () => NO_ENHANCERS,
});

/** True when the enhancers add no stage at all (the pipeline's plain path). */
export function isPlain(enhancers: ComponentEnhancers): boolean {
  return (
    enhancers === NO_ENHANCERS ||
    (!enhancers.guards && !enhancers.interceptors && !enhancers.filters && !enhancers.pipes && !enhancers.requiredScopes && !enhancers.requestScoped)
  );
}
