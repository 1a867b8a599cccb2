import { ForbiddenException, type ArgumentsHost, type PipeTransform } from '@nestjs/common';
import { EXCEPTION_FILTERS_METADATA, FILTER_CATCH_EXCEPTIONS, GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA } from '@nestjs/common/constants';
import { ApplicationConfig, Reflector, type ContextId, type ExternalContextCreator, type ModuleRef } from '@nestjs/core';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ArgumentMetadata, ExecutionContext } from '../interfaces';
import type { RequestHandle } from '../invocation';
import { copyOwnMetadata } from '../metadata';
import type { ComponentEnhancers } from '../pipeline';
import { NestRequestHandle } from './nest-request';

/** The execution-context type Nest's guards, interceptors and filters see: `context.getType() === 'mcp'`. */
export const MCP_CONTEXT_TYPE = 'mcp';

type Callback = (...args: unknown[]) => unknown;
/** What `ExternalContextCreator.create()` returns: the stand-in of the method, wrapped in the enhancers asked for. */
type Wrapped = (...args: unknown[]) => Promise<unknown>;

/**
 * The public parts of Nest that run enhancers: the application's `ExternalContextCreator` (the seam Nest gives
 * transports outside its own, as @nestjs/graphql and necord use it) and its `ApplicationConfig` (a provider of
 * every module: the global enhancers of `app.useGlobal*()` and `APP_*`).
 */
export interface NestSeam {
  readonly creator: ExternalContextCreator;
  readonly config?: ApplicationConfig;
}

/** The application's ApplicationConfig (a provider of every module), or undefined where Nest gives none. */
export function applicationConfig(moduleRef: ModuleRef): ApplicationConfig | undefined {
  try {
    return moduleRef.get(ApplicationConfig, { strict: false });
  } catch {
    return undefined;
  }
}

/** The enhancer kinds, with the metadata key of `@Use…()` and the name of their global lists in ApplicationConfig. */
const KINDS = {
  guards: { key: GUARDS_METADATA, global: 'Guards' },
  interceptors: { key: INTERCEPTORS_METADATA, global: 'Interceptors' },
  pipes: { key: PIPES_METADATA, global: 'Pipes' },
  filters: { key: EXCEPTION_FILTERS_METADATA, global: 'Filters' },
} as const;
type Kind = keyof typeof KINDS;

/** One stage each: `create()` wraps the stand-in in the guards alone, the interceptors alone, or the filters alone. */
const GUARDS_ONLY = { guards: true, interceptors: false, filters: false };
const INTERCEPTORS_ONLY = { guards: false, interceptors: true, filters: false };
const FILTERS_ONLY = { guards: false, interceptors: false, filters: true };
const NONE = { guards: false, interceptors: false, filters: false };

/** What `ExternalContextCreator.create()` throws when a guard says no (Nest's FORBIDDEN_MESSAGE). */
const FORBIDDEN_MESSAGE = 'Forbidden resource';

const reflector = new Reflector();

/**
 * What the stand-in of a method does when Nest calls it, per call (keyed by the call's ExecutionContext, the
 * third argument Nest passes on): the rest of the call inside the interceptors, the error inside the filters,
 * nothing after the guards.
 */
const continuations = new WeakMap<object, () => unknown>();
const standIns = new WeakMap<Callback, Callback>();

/**
 * The function Nest wraps for a component method: named like it and carrying its metadata (`@UseGuards()`,
 * `@SetMetadata()`, …: Nest's context creators and `Reflector` read `context.getHandler()`), but calling the
 * call's continuation instead of the method, which the pipeline invokes itself after validation and pipes.
 * One per method, so `getHandler()` is the same function for every stage and request.
 */
function standInOf(handler: Callback): Callback {
  let standIn = standIns.get(handler);
  if (standIn) return standIn;
  standIn = {
    [handler.name](...args: unknown[]): unknown {
      const go = continuations.get(args[2] as object);
      if (!go) throw foreignArguments(handler);
      return go();
    },
  }[handler.name];
  copyOwnMetadata(handler, standIn);
  standIns.set(handler, standIn);
  return standIn;
}

/** What the stand-in does once the guards let the call through: nothing (the pipeline goes on). */
function allowed(): undefined {
  return undefined;
}

/**
 * Nest called the stand-in with other arguments than the call's: on Nest 11, whose ExternalContextCreator caches a
 * method's parameter metadata by class name and method name, another library wrapping a class of the same name
 * and a method of the same name (a GraphQL resolver, say) with parameter decorators of its own.
 */
function foreignArguments(handler: Callback): Error {
  return new Error(
    `Cannot run the Nest enhancers of ${handler.name}(): Nest called it with other arguments than the MCP call's, as happens on Nest 11 when another library wraps a class of the same name and a method of the same name through ExternalContextCreator.\n` +
      `Fix: rename the class or the method on one side, or use Nest 12 (which keeps the two apart).`,
  );
}

/** Nest's enhancers of one component method, for one context id (static, or one request's). */
interface Resolved {
  readonly guard?: Wrapped;
  readonly intercept?: Wrapped;
  readonly filter?: Wrapped;
  readonly pipes: PipeTransform[];
}

/** Where one component method lives for Nest: its class, its handler, and how to reach its instance. */
export interface NestComponentSite {
  readonly target: Function;
  readonly method: string;
  readonly handler: Callback;
  /** The singleton instance (static dependency trees), else undefined: per request. */
  readonly instance?: object;
  /** `@Scopes()` of the class and method (checked by the pipeline, before Nest's guards). */
  readonly requiredScopes?: readonly string[];
  /** Builds (once per request) the request's instance, which also loads its request-scoped enhancers. */
  readonly resolve?: (handle: NestRequestHandle) => Promise<object>;
}

/**
 * Nest's guards, interceptors, pipes and filters on one MCP component method, run by Nest through its public
 * `ExternalContextCreator.create()` in Nest's order: `@UseGuards()`/`@UseInterceptors()`/`@UsePipes()`/
 * `@UseFilters()` of `@nestjs/common`, the `APP_*` providers and `app.useGlobal*()`. They see Nest's
 * ExecutionContext with type `'mcp'`, whose `switchToRpc().getData()` is the arguments and `getContext()` the MCP
 * Context. Which stages a method has is read at bootstrap from the metadata and the application's config; a
 * method without any skips them all (the pipeline leaves the stages out).
 */
export class NestEnhancers implements ComponentEnhancers {
  readonly requiredScopes?: readonly string[];
  readonly guards: boolean;
  readonly interceptors: boolean;
  readonly filters: boolean;
  readonly pipes: boolean;
  readonly requestScoped: boolean;
  private readonly stand: object;
  private readonly standIn: Callback;
  private readonly catches: readonly Function[] | undefined;
  private readonly fixed?: Resolved;
  private unguarded?: NestEnhancers;

  constructor(
    private readonly nest: NestSeam,
    private readonly site: NestComponentSite,
    skipGuards = false,
  ) {
    this.requestScoped = site.instance === undefined;
    if (site.requiredScopes) this.requiredScopes = site.requiredScopes;
    // Metadata is read from the class and the handler: a stand-in of the class serves until a request's instance exists.
    this.stand = site.instance ?? Object.create(site.target.prototype as object);
    this.standIn = standInOf(site.handler);
    this.guards = !skipGuards && this.declares('guards');
    this.interceptors = this.declares('interceptors');
    this.filters = this.declares('filters');
    this.catches = this.filters ? this.caughtTypes() : undefined;
    // A static tree's enhancers are built once, here; a request-scoped tree's per request (Nest builds
    // request-scoped enhancers only for a context id).
    const declaresPipes = this.declares('pipes');
    this.fixed = this.requestScoped ? undefined : this.resolve(undefined, declaresPipes);
    this.pipes = this.fixed ? this.fixed.pipes.length > 0 : declaresPipes;
  }

  hasPipes(): boolean {
    return this.pipes;
  }

  async canActivate(execution: ExecutionContext, request: RequestHandle | undefined): Promise<boolean> {
    const { guard } = await this.forRequest(request);
    if (!guard) return true;
    continuations.set(execution, allowed);
    try {
      await guard(...argsOf(execution));
      return true;
    } catch (error) {
      // A guard that says no: Nest throws its ForbiddenException; what a guard throws itself propagates.
      if (error instanceof ForbiddenException && error.message === FORBIDDEN_MESSAGE) return false;
      throw error;
    }
  }

  async intercept(execution: ExecutionContext, request: RequestHandle | undefined, next: () => Promise<unknown>): Promise<unknown> {
    const { intercept } = await this.forRequest(request);
    if (!intercept) return next();
    continuations.set(execution, next);
    return intercept(...argsOf(execution));
  }

  async transform(_index: number, value: unknown, metadata: ArgumentMetadata, request: RequestHandle | undefined): Promise<unknown> {
    const { pipes } = await this.forRequest(request);
    if (pipes.length === 0) return value;
    // Nest's pipes know 'body' | 'query' | 'param' | 'custom': an MCP argument is 'custom', with its name as data.
    return this.nest.creator.getParamValue(value, { metatype: metadata.metatype, type: 'custom', data: metadata.data }, pipes);
  }

  async recover(error: unknown, execution: ExecutionContext, request: RequestHandle | undefined): Promise<{ value: unknown } | undefined> {
    // An error no filter catches is not handed to Nest, whose last resort would log it as unhandled: the
    // pipeline answers it (and logs it, masked) as it does for a method without filters.
    if (!this.mayCatch(error)) return undefined;
    const { filter } = await this.forRequest(request);
    if (!filter) return undefined;
    continuations.set(execution, () => {
      throw error;
    });
    try {
      return { value: await filter(...argsOf(execution)) };
    } catch (thrown) {
      if (thrown === error) return undefined; // no filter answered (or it rethrew the error)
      throw thrown;
    }
  }

  withoutGuards(): ComponentEnhancers {
    if (!this.guards) return this;
    return (this.unguarded ??= new NestEnhancers(this.nest, this.site, true));
  }

  private async forRequest(request: RequestHandle | undefined): Promise<Resolved> {
    if (this.fixed) return this.fixed;
    if (!(request instanceof NestRequestHandle)) {
      throw new TypeError('Cannot resolve a request-scoped Nest enhancer: the request handle was not opened by the Nest host.');
    }
    return request.memo(this, async () => {
      await this.site.resolve!(request); // loads the class's request-scoped enhancers for this context id
      return this.resolve(request.contextId, this.pipes);
    });
  }

  /** The stages this method has, each wrapped by Nest around the method's stand-in. */
  private resolve(contextId: ContextId | undefined, pipes: boolean): Resolved {
    const { creator } = this.nest;
    const wrap = (options: typeof NONE): Wrapped =>
      creator.create(this.stand, this.standIn, this.site.method, undefined, undefined, contextId, undefined, options, MCP_CONTEXT_TYPE);
    return {
      ...(this.guards ? { guard: wrap(GUARDS_ONLY) } : {}),
      ...(this.interceptors ? { intercept: wrap(INTERCEPTORS_ONLY) } : {}),
      ...(this.filters ? { filter: wrap(FILTERS_ONLY) } : {}),
      pipes: pipes ? this.pipesOf(contextId) : [],
    };
  }

  /**
   * The pipes Nest applies to this method's parameters (global, class and method `@UsePipes()`, built for the
   * context id): `create()` hands them to the public `createPipesFn()`, which this asks for them on a view of
   * the creator; they then run on each MCP argument through the public `getParamValue()`.
   */
  private pipesOf(contextId: ContextId | undefined): PipeTransform[] {
    let found: PipeTransform[] | undefined;
    const view = Object.create(this.nest.creator, {
      createPipesFn: {
        value: (pipes: PipeTransform[]) => {
          found = pipes;
          return null;
        },
      },
    }) as ExternalContextCreator;
    view.create(this.stand, this.standIn, this.site.method, undefined, undefined, contextId, undefined, NONE, MCP_CONTEXT_TYPE);
    if (!found) {
      throw new BootstrapError(
        BootstrapErrorCode.InvalidEnhancer,
        `Cannot run Nest's pipes on ${this.site.target.name}.${this.site.method}: this version of @nestjs/core does not hand a method's pipes to ExternalContextCreator.createPipesFn().\n` +
          `Fix: use @nestjs/core 11 or 12 (the versions mcp-reflect/nest is tested with).`,
      );
    }
    return found;
  }

  /**
   * Whether any enhancer of `kind` may run on the method: the class's or the method's `@Use…()`, or a global one
   * (static or request-scoped). Read from metadata and the application's config, without building anything.
   */
  private declares(kind: Kind): boolean {
    const { key, global } = KINDS[kind];
    const own = [reflector.get<unknown[] | undefined>(key, this.site.target), reflector.get<unknown[] | undefined>(key, this.site.handler)];
    if (own.some((list) => (list?.length ?? 0) > 0)) return true;
    const config = this.nest.config;
    // Without the application's config, assume there may be global ones.
    if (!config) return true;
    return config[`getGlobal${global}`]().length > 0 || config[`getGlobalRequest${global}`]().length > 0;
  }

  /** The error classes this method's filters catch (`@Catch(…)`); undefined when one catches everything (or is unknown). */
  private caughtTypes(): readonly Function[] | undefined {
    const config = this.nest.config;
    if (!config) return undefined;
    const filters: unknown[] = [
      ...config.getGlobalFilters(),
      ...config.getGlobalRequestFilters().map((wrapper) => wrapper.metatype),
      ...(reflector.get<unknown[] | undefined>(EXCEPTION_FILTERS_METADATA, this.site.target) ?? []),
      ...(reflector.get<unknown[] | undefined>(EXCEPTION_FILTERS_METADATA, this.site.handler) ?? []),
    ];
    const types: Function[] = [];
    for (const filter of filters) {
      const type = typeof filter === 'function' ? filter : (filter as object | null)?.constructor;
      const caught = type ? reflector.get<Function[] | undefined>(FILTER_CATCH_EXCEPTIONS, type) : undefined;
      if (!caught || caught.length === 0) return undefined;
      types.push(...caught);
    }
    return types;
  }

  private mayCatch(error: unknown): boolean {
    return this.catches === undefined || this.catches.some((type) => error instanceof type);
  }
}

/**
 * The arguments Nest's ExecutionContext shows: `[arguments, Context, the mcp-reflect ExecutionContext]` (the
 * third names the component as served, with its namespace: read it with `mcpExecutionOf(context)`).
 */
function argsOf(execution: ExecutionContext): unknown[] {
  return [...execution.getArgs(), execution];
}

/**
 * What a Nest guard, interceptor or filter reads of the MCP call behind its ExecutionContext of type `'mcp'`:
 * the component's kind and served name (with its namespace), the MCP method, the phase (`'list'` while a list
 * is decided), the Context and the caller's identity. Undefined for a context of another type.
 *
 * @example
 * canActivate(context: ExecutionContext) {
 *   return mcpExecutionOf(context)?.name.startsWith('admin_') ? isAdmin(context) : true;
 * }
 */
export function mcpExecutionOf(context: ArgumentsHost): ExecutionContext | undefined {
  if (context.getType<string>() !== MCP_CONTEXT_TYPE) return undefined;
  return context.getArgByIndex<ExecutionContext>(2);
}
