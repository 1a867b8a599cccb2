import type { InjectionToken, McpMiddleware } from '../interfaces';
import type { ClientFacingError, MethodHost, ProvidedMethods, RequestScopeOpener } from '../invocation';
import type { ComponentEnhancers } from '../pipeline';
import type { GeneratedTypes } from '../metadata';
import type { McpModuleOptions } from './mcp-options';

/**
 * Whoever supplies an application's instances: the classes whose decorated methods it serves (one instance,
 * or one per request), the request scopes those are resolved in, their enhancers, and the lifecycle around
 * them. The application — registries, compiled pipelines, the server — is built on a host
 * (`composeApplication`) and reaches nothing past it. The standalone container is one host
 * ({@link NativeHost}); a NestJS application is another.
 *
 * Order: `init()`, then `components()`, `enhancersFor()`, `middleware` and `scopes`; `ready()` once the
 * application is built; `shutdown()` after its connections closed.
 */
export interface McpHost {
  /** The `McpModule.forRoot()` options, as this host found them. */
  readonly options: McpModuleOptions;
  /** How messages name the application (the root module). */
  readonly name: string;
  /** Runs before anything is collected (the standalone container: every `onModuleInit`). */
  init(): Promise<void>;
  /** Every class with decorated methods, with its instance or its per-request resolver, carrying `types`. */
  components(types: GeneratedTypes): Promise<readonly MethodHost[]>;
  /**
   * A component host for an object added at runtime (`app.tools.add(instance, { namespace })`), or for a
   * provider's components (`provided`: the provider is the instance, `provided.target` its identity).
   */
  adopt(instance: object, types: GeneratedTypes, namespace?: string, provided?: ProvidedMethods): MethodHost;
  /** The enhancers of one method of a component host this host supplied (or adopted). */
  enhancersFor(component: MethodHost, method: string): ComponentEnhancers;
  /** The application's middleware, built once. */
  readonly middleware: readonly McpMiddleware[];
  /** Opens the request scope of one call; only this host reads the handles it opens. */
  readonly openScope: RequestScopeOpener;
  /** Whether the host provides `token` (for `app.get()`). */
  has(token: InjectionToken): boolean;
  /** The instance the host provides for `token`. */
  get<T>(token: InjectionToken): T | undefined;
  /** Runs once the application is built (the standalone container: every `onApplicationBootstrap`). */
  ready(): Promise<void>;
  /** Runs as the application closes, after its connections closed (the shutdown hooks). */
  shutdown(signal?: string): Promise<void>;
  /**
   * The bootstrap failed: releases whatever the host's providers started (the standalone container: every stopping
   * hook of every built singleton, each bounded by `bound` ms); the failures. A host whose framework owns the
   * lifecycle (Nest) leaves it to the framework.
   */
  abandon?(bound: number): Promise<Error[]>;
  /**
   * Work that outlives the bootstrap (a durable queue's worker, the watch of its task store) starts only once the
   * application is first served or told to work (`McpApplication.startWork()`), not at bootstrap: Nest runs no
   * shutdown hook when a later provider's bootstrap fails, and a failed `createApplicationContext()` leaves the
   * caller nothing to close.
   */
  readonly startsWorkLater?: boolean;
  /** Errors this host's framework makes for clients to read (e.g. Nest's `HttpException`): their message reaches the caller. */
  clientFacing?(error: unknown): ClientFacingError | undefined;
}
