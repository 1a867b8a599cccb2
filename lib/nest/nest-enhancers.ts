import type { ArgumentsHost, CanActivate, ExecutionContext as NestExecutionContext, NestInterceptor, PipeTransform } from '@nestjs/common';
import { EXCEPTION_FILTERS_METADATA, GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA } from '@nestjs/common/constants';
import type { ContextId, ExternalContextCreator } from '@nestjs/core';
import type { ArgumentMetadata, ExecutionContext } from '../interfaces';
import type { RequestHandle } from '../invocation';
import type { ComponentEnhancers } from '../pipeline';
import { runInterceptors } from './interceptor-chain';
import { NestRequestHandle } from './nest-request';

/** The execution-context type Nest's guards, interceptors and filters see: `context.getType() === 'mcp'`. */
export const MCP_CONTEXT_TYPE = 'mcp';

type Callback = (...args: unknown[]) => unknown;
interface Creator<T> {
  create(instance: object, callback: Callback, module: string, contextId?: ContextId, inquirerId?: string): T;
  reflectClassMetadata<M>(instance: object, metadataKey: string): M;
  reflectMethodMetadata<M>(callback: Callback, metadataKey: string): M;
}

/** The enhancer kinds, with the metadata key of `@Use…()` and the name of their global lists in Nest's ApplicationConfig. */
const KINDS = {
  guards: { key: GUARDS_METADATA, global: 'Guards' },
  interceptors: { key: INTERCEPTORS_METADATA, global: 'Interceptors' },
  pipes: { key: PIPES_METADATA, global: 'Pipes' },
  filters: { key: EXCEPTION_FILTERS_METADATA, global: 'Filters' },
} as const;
type Kind = keyof typeof KINDS;
interface FiltersHandler {
  invokeCustomFilters(exception: unknown, host: ArgumentsHost): Promise<unknown> | null;
}
interface NestContextHost extends NestExecutionContext {
  setType(type: string): void;
}

/**
 * What Nest's ExternalContextCreator is made of: the context creators that read `@UseGuards()` & co. and the
 * global enhancers, and the consumer that runs guards (pipes run through the public `getParamValue()`, interceptors in
 * `runInterceptors`, in Nest's order on a shorter path). Read once from the instance Nest injects.
 */
export interface NestEnhancerMachinery {
  readonly guards: Creator<CanActivate[]>;
  readonly guardsConsumer: {
    tryActivate(guards: CanActivate[], args: unknown[], instance: object, callback: Callback, type?: string): Promise<boolean>;
    createContext(args: unknown[], instance: object, callback: Callback): NestContextHost;
  };
  readonly interceptors: Creator<NestInterceptor[]>;
  readonly pipes: Creator<PipeTransform[]>;
  /** Nest's pipes on one value: the public `ExternalContextCreator.getParamValue()` (its pipes consumer). */
  applyPipes(value: unknown, metadata: { metatype?: unknown; type: 'custom'; data?: unknown }, pipes: PipeTransform[]): Promise<unknown>;
  readonly filters: Creator<FiltersHandler>;
  moduleKey(moduleClass: Function | undefined): string;
  /**
   * Whether any enhancer of `kind` may run on `handler` of the class of `instance`: the class's or the method's
   * `@Use…()`, or a global one (static or request-scoped). Read from metadata, without building anything.
   */
  declares(kind: Kind, instance: object, handler: Callback): boolean;
}

/**
 * The machinery inside Nest's ExternalContextCreator; a Nest that built it otherwise fails the bootstrap, naming it.
 *
 * Nest's private fields, on purpose: Nest gives a package outside its own no public way to run these stages one by
 * one (issue 41, item 5, docs/nestjs.md#what-mcp-reflectnest-reads-of-nest). `ExternalContextCreator.create()`,
 * the one public entry, reads the method's `@Use…()` from the very function it finally calls, so it cannot ask the
 * guards alone (lists ask them without calling the method) nor run pipes on MCP arguments (it applies pipes only to
 * parameters of param decorators Nest knows), and its interceptor path is the one docs/performance.md measures at
 * ~50 µs a call. The creators and consumers themselves cannot be built from public parts either: their constructors
 * take the NestContainer, which no provider exposes (ModuleRef keeps it protected), and Nest 12 moves them to
 * `@nestjs/core/internal`, marked "not part of the public API".
 */
export function machineryOf(creator: ExternalContextCreator): NestEnhancerMachinery {
  const inner = creator as unknown as Record<string, unknown>;
  const names = ['guardsContextCreator', 'guardsConsumer', 'interceptorsContextCreator', 'pipesContextCreator', 'filtersContextCreator'];
  const missing = names.filter((name) => typeof inner[name] !== 'object' || inner[name] === null);
  if (missing.length > 0) {
    throw new Error(
      `Cannot run Nest's enhancers on MCP components: this version of @nestjs/core builds ExternalContextCreator without ${missing.join(', ')}.\n` +
        `Fix: use @nestjs/core 11 or 12 (the versions mcp-reflect/nest is tested with).`,
    );
  }
  return {
    guards: inner.guardsContextCreator as never,
    guardsConsumer: inner.guardsConsumer as never,
    interceptors: inner.interceptorsContextCreator as never,
    pipes: inner.pipesContextCreator as never,
    applyPipes: (value, metadata, pipes) => creator.getParamValue(value, { metatype: metadata.metatype, type: metadata.type, data: metadata.data }, pipes),
    filters: inner.filtersContextCreator as never,
    moduleKey: (moduleClass) => creator.getContextModuleKey(moduleClass),
    declares: (kind, instance, handler) => {
      const source = { guards: inner.guardsContextCreator, interceptors: inner.interceptorsContextCreator, pipes: inner.pipesContextCreator, filters: inner.filtersContextCreator }[kind] as Creator<unknown> & { config?: Record<string, () => unknown[]> };
      const { key, global } = KINDS[kind];
      const own = [source.reflectClassMetadata<unknown[] | undefined>(instance, key), source.reflectMethodMetadata<unknown[] | undefined>(handler, key)];
      if (own.some((list) => (list?.length ?? 0) > 0)) return true;
      const config = source.config;
      // Without the application's config, assume there may be global ones.
      if (!config || typeof config[`getGlobal${global}`] !== 'function') return true;
      return config[`getGlobal${global}`]().length > 0 || (config[`getGlobalRequest${global}`]?.().length ?? 0) > 0;
    },
  };
}

/** Nest's enhancers of one component method, for one context id (static, or one request's). */
interface Resolved {
  readonly guards: CanActivate[];
  readonly interceptors: NestInterceptor[];
  readonly pipes: PipeTransform[];
  readonly filters: FiltersHandler;
}

/** Where one component method lives for Nest: its class, its handler, its module, and how to reach its instance. */
export interface NestComponentSite {
  readonly target: Function;
  readonly handler: Callback;
  readonly moduleKey: string;
  /** The singleton instance (static dependency trees), else undefined: per request. */
  readonly instance?: object;
  /** `@Scopes()` of the class and method (checked by the pipeline, before Nest's guards). */
  readonly requiredScopes?: readonly string[];
  /** Builds (once per request) the request's instance, which also loads its request-scoped enhancers. */
  readonly resolve?: (handle: NestRequestHandle) => Promise<object>;
}

/**
 * Nest's guards, interceptors, pipes and filters on one MCP component method, run by Nest's own consumers in
 * Nest's order: `@UseGuards()`/`@UseInterceptors()`/`@UsePipes()`/`@UseFilters()` of `@nestjs/common`, the
 * `APP_*` providers and `app.useGlobal*()`. They see Nest's ExecutionContext with type `'mcp'`, whose
 * `switchToRpc().getData()` is the arguments and `getContext()` the MCP Context.
 */
export class NestEnhancers implements ComponentEnhancers {
  readonly requiredScopes?: readonly string[];
  readonly guards: boolean;
  readonly interceptors: boolean;
  readonly filters: boolean;
  readonly pipes: boolean;
  readonly requestScoped: boolean;
  private readonly stand: object;
  private readonly fixed?: Resolved;
  private unguarded?: NestEnhancers;

  constructor(
    private readonly nest: NestEnhancerMachinery,
    private readonly site: NestComponentSite,
    private readonly skipGuards = false,
  ) {
    this.requestScoped = site.instance === undefined;
    if (site.requiredScopes) this.requiredScopes = site.requiredScopes;
    // Metadata is read from the class and the handler: a stand-in of the class serves until a request's instance exists.
    this.stand = site.instance ?? Object.create(site.target.prototype as object);
    // A static tree's enhancers are resolved once, here. A request-scoped tree's are resolved per request (Nest
    // builds request-scoped enhancers only for a context id); which stages it has is read from the metadata.
    const found = this.requestScoped ? undefined : this.resolve(undefined);
    const declares = (kind: Kind) => nest.declares(kind, this.stand, site.handler);
    this.guards = !skipGuards && (found ? found.guards.length > 0 : declares('guards'));
    this.interceptors = found ? found.interceptors.length > 0 : declares('interceptors');
    this.pipes = found ? found.pipes.length > 0 : declares('pipes');
    this.filters = found ? hasFilters(found.filters) : declares('filters');
    this.fixed = found;
  }

  hasPipes(): boolean {
    return this.pipes;
  }

  async canActivate(execution: ExecutionContext, request: RequestHandle | undefined): Promise<boolean> {
    const { guards } = await this.forRequest(request);
    if (guards.length === 0) return true;
    return this.nest.guardsConsumer.tryActivate(guards, argsOf(execution), this.stand, this.site.handler, MCP_CONTEXT_TYPE);
  }

  async intercept(execution: ExecutionContext, request: RequestHandle | undefined, next: () => Promise<unknown>): Promise<unknown> {
    const { interceptors } = await this.forRequest(request);
    if (interceptors.length === 0) return next();
    const context = this.nest.guardsConsumer.createContext(argsOf(execution), this.stand, this.site.handler);
    context.setType(MCP_CONTEXT_TYPE);
    return runInterceptors(interceptors, context, next);
  }

  async transform(_index: number, value: unknown, metadata: ArgumentMetadata, request: RequestHandle | undefined): Promise<unknown> {
    const { pipes } = await this.forRequest(request);
    if (pipes.length === 0) return value;
    // Nest's pipes know 'body' | 'query' | 'param' | 'custom': an MCP argument is 'custom', with its name as data.
    return this.nest.applyPipes(value, { metatype: metadata.metatype, type: 'custom', data: metadata.data }, pipes);
  }

  async recover(error: unknown, execution: ExecutionContext, request: RequestHandle | undefined): Promise<{ value: unknown } | undefined> {
    const { filters } = await this.forRequest(request);
    const host = this.nest.guardsConsumer.createContext(argsOf(execution), this.stand, this.site.handler);
    host.setType(MCP_CONTEXT_TYPE);
    const answer = filters.invokeCustomFilters(error, host);
    return answer === null ? undefined : { value: await answer };
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
      return this.resolve(request.contextId);
    });
  }

  private resolve(contextId: ContextId | undefined): Resolved {
    const { nest, site, stand } = this;
    const at = <T>(creator: Creator<T>) => creator.create(stand, site.handler, site.moduleKey, contextId);
    return {
      guards: this.skipGuards ? [] : at(nest.guards),
      interceptors: at(nest.interceptors),
      pipes: at(nest.pipes),
      filters: at(nest.filters),
    };
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

function hasFilters(handler: FiltersHandler): boolean {
  const filters = (handler as unknown as { filters?: unknown[] }).filters;
  return Array.isArray(filters) && filters.length > 0;
}
