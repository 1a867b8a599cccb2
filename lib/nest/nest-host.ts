import { HttpException } from '@nestjs/common';
import { ContextIdFactory, type DiscoveryService, type ExternalContextCreator, type ModuleRef, type ModulesContainer } from '@nestjs/core';
import type { Context } from '../context';
import { BootstrapError, BootstrapErrorCode, RpcCode } from '../errors';
import type { InjectionToken, McpFeatureOptions, McpMiddleware } from '../interfaces';
import type { ClientFacingError, MethodHost, ProvidedMethods, RequestHandle, RequestScopeOpener } from '../invocation';
import type { GeneratedTypes } from '../metadata';
import { MCP_FEATURE, MCP_OPTIONS } from '../constants';
import { checkedScopes, hasComponents, moduleFeature, refuseMcpDecoratorsUnderNest, refuseMcpModuleUnderNest, unprovidedComponentClasses, type McpHost, type McpModuleOptions } from '../host';
import type { ComponentEnhancers } from '../pipeline';
import { applicationConfig, NestEnhancers, type NestComponentSite, type NestSeam } from './nest-enhancers';
import { NestRequestHandle } from './nest-request';
import type { NestModuleNode } from './nest-servers';

/** One provider of the Nest application that serves components: where it lives, and how to reach its instance. */
interface NestComponent extends MethodHost {
  readonly moduleName: string;
}

/** The Nest services a host is made of (injected into McpService by Nest). */
export interface NestServices {
  readonly discovery: DiscoveryService;
  readonly moduleRef: ModuleRef;
  readonly externalContextCreator: ExternalContextCreator;
  /** The modules of the application (each checked for mcp-reflect's `@Module()`, which Nest does not read). */
  readonly modules?: ModulesContainer;
}

/**
 * The NestJS application as a host: components are the Nest providers (of any module) whose classes carry
 * mcp-reflect's component decorators, with their instances from Nest's container (singletons as they are;
 * request-scoped trees per MCP request, through a Nest context id with `REQUEST` bound to an `McpRequest`),
 * and their enhancers are Nest's. Nest runs the lifecycle hooks itself.
 */
export class NestHost implements McpHost {
  readonly name: string;
  readonly middleware: readonly McpMiddleware[];
  readonly openScope: RequestScopeOpener;
  /** A durable queue's worker starts once the application is first served, has bound, or is told to work (McpService). */
  readonly startsWorkLater = true;
  private readonly nest: NestSeam;

  constructor(
    readonly options: McpModuleOptions,
    private readonly services: NestServices,
    middleware: readonly McpMiddleware[] = [],
    /** The Nest modules this server serves (`modules`); undefined: all. */
    private readonly served?: ReadonlySet<NestModuleNode>,
  ) {
    this.name = 'the Nest application';
    this.middleware = middleware;
    // Nest's public seam for transports of its own: its ExternalContextCreator, and the application's config
    // (a provider of every module) for the global enhancers.
    this.nest = { creator: services.externalContextCreator, config: applicationConfig(services.moduleRef) };
    this.openScope = (context: Context): RequestHandle => {
      const request = { type: 'mcp' as const, context, auth: context.auth, sessionId: context.sessionId };
      // A registered ContextIdStrategy (durable providers, per tenant say) is asked with the McpRequest.
      const contextId = ContextIdFactory.getByRequest(request);
      services.moduleRef.registerRequestByContextId(request, contextId);
      return new NestRequestHandle(contextId, request);
    };
  }

  async init(): Promise<void> {}

  async components(types: GeneratedTypes): Promise<readonly MethodHost[]> {
    if (this.get(MCP_OPTIONS) !== undefined) throw standaloneModule();
    for (const module of this.services.modules?.values() ?? []) if (typeof module.metatype === 'function') refuseMcpModuleUnderNest(module.metatype);
    const found: NestComponent[] = [];
    const seen = new Map<Function, string>();
    for (const controller of this.services.discovery.getControllers()) {
      const target = controller.metatype as Function | null;
      if (typeof target === 'function' && hasComponents(target)) throw alsoController(target, controller.host?.metatype?.name ?? 'an unknown module');
    }
    for (const wrapper of this.services.discovery.getProviders()) {
      // A class provider serves its class; a factory or value provided under a class token serves that class.
      const target = (wrapper.isNotMetatype ? wrapper.token : wrapper.metatype) as unknown;
      if (typeof target !== 'function' || !target.prototype || !hasComponents(target)) continue;
      const moduleName = wrapper.host?.metatype?.name ?? 'an unknown module';
      const where = seen.get(target);
      if (where !== undefined) throw twoModules(target, where, moduleName);
      seen.set(target, moduleName);
      if (this.served && !this.served.has(wrapper.host as never)) continue; // another server's
      refuseMcpDecoratorsUnderNest(target, moduleName);
      const namespace = featureOptions(wrapper.host as NestModuleLike | undefined, moduleName);
      if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient) {
        const instance = wrapper.instance as object | undefined;
        if (!(instance instanceof target)) throw notAnInstance(target, moduleName);
        found.push({ target, instance, types, moduleName, ...namespace });
        continue;
      }
      const token = wrapper.token as InjectionToken;
      const resolve = (request: RequestHandle) => {
        if (!(request instanceof NestRequestHandle)) throw foreignHandle(target);
        return request.memo(target, () => this.services.moduleRef.resolve(token as never, request.contextId, { strict: false }) as Promise<object>);
      };
      found.push({ target, resolve, types, moduleName, ...namespace });
    }
    if (this.options.warnings?.unprovidedComponents !== false) {
      const orphans = unprovidedComponentClasses(new Set(seen.keys()));
      if (orphans.length > 0) throw unprovided(orphans);
    }
    return found;
  }

  adopt(instance: object, types: GeneratedTypes, namespace?: string, provided?: ProvidedMethods): MethodHost {
    const named = { ...(namespace ? { namespace } : {}), ...(provided ? { provided } : {}) };
    const component: NestComponent = { target: provided?.target ?? instance.constructor, instance, types, moduleName: 'the application', ...named };
    return component;
  }

  enhancersFor(component: MethodHost, method: string): ComponentEnhancers {
    // A provider's component runs its handler; a decorated one, its method (Nest reads the enhancers' metadata from either).
    const handler = component.provided?.get(method)?.handler ?? (component.target.prototype as Record<string, (...args: unknown[]) => unknown>)[method];
    const requiredScopes = checkedScopes(component, method);
    const nestSite: NestComponentSite = {
      target: component.target,
      method,
      handler,
      ...(requiredScopes ? { requiredScopes } : {}),
      ...(component.instance ? { instance: component.instance } : { resolve: (handle) => Promise.resolve(component.resolve!(handle)) }),
    };
    return new NestEnhancers(this.nest, nestSite);
  }

  has(token: InjectionToken): boolean {
    return this.get(token) !== undefined;
  }

  /** This server's own first (its McpComponents, in its McpModule), then any module's. */
  get<T>(token: InjectionToken): T | undefined {
    for (const strict of [true, false]) {
      try {
        return this.services.moduleRef.get<T>(token as never, { strict });
      } catch {}
    }
    return undefined;
  }

  async ready(): Promise<void> {}

  async shutdown(): Promise<void> {}

  /**
   * Nest's 4xx `HttpException`s are client-facing by design: their message reaches the caller (a tool's
   * `isError` text; for resources and prompts a JSON-RPC error, -32602, as a missing resource is answered in
   * both eras). A `ValidationPipe`'s list of messages is joined. A 5xx one (`InternalServerErrorException`, a
   * `BadGatewayException` wrapping an upstream's answer) is a server failure: masked and logged like any other.
   */
  clientFacing(error: unknown): ClientFacingError | undefined {
    if (!(error instanceof HttpException)) return undefined;
    const status = error.getStatus();
    if (!(status < 500)) return undefined;
    const response = error.getResponse();
    const detail = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    const message = Array.isArray(detail) ? detail.map(String).join('; ') : typeof detail === 'string' ? detail : error.message;
    return { message, code: RpcCode.InvalidParams };
  }
}

/** The namespace and transforms a Nest module's `McpModule.forFeature()` import gives its components (at most one such import). */
function featureOptions(module: NestModuleLike | undefined, moduleName: string): ReturnType<typeof moduleFeature> {
  const features: McpFeatureOptions[] = [];
  for (const imported of module?.imports ?? []) {
    const options = imported.providers.get(MCP_FEATURE)?.instance as McpFeatureOptions | undefined;
    if (options) features.push(options);
  }
  return moduleFeature(moduleName, features);
}

/** What the host reads of a Nest `Module`: what it imports, and their providers. */
interface NestModuleLike {
  readonly imports: Iterable<{ readonly providers: ReadonlyMap<unknown, { readonly instance: unknown }> }>;
}

function twoModules(target: Function, first: string, second: string): BootstrapError {
  return new BootstrapError(
    BootstrapErrorCode.InvalidProvider,
    `Cannot serve the components of ${target.name}: both ${first} and ${second} provide it, so its tools would be served twice.\n` +
      `Fix: provide ${target.name} in one module (export it from there and import that module where it is needed).`,
  );
}

function alsoController(target: Function, module: string): BootstrapError {
  return new BootstrapError(
    BootstrapErrorCode.InvalidProvider,
    `Cannot serve the components of ${target.name} (${module}): it is a Nest controller, whose instances Nest builds for its routes, not a provider.\n` +
      `Fix: keep the MCP components in a provider class and call it from the controller (both can share one service).`,
  );
}

function notAnInstance(target: Function, module: string): BootstrapError {
  return new BootstrapError(
    BootstrapErrorCode.InvalidProvider,
    `Cannot serve the components of ${target.name} (provider in ${module}): its provider did not give an instance of ${target.name}.\n` +
      `Fix: make the factory return an instance of ${target.name}, or provide the class itself.`,
  );
}

function standaloneModule(): BootstrapError {
  return new BootstrapError(
    BootstrapErrorCode.InvalidModule,
    `Cannot serve the Nest application: McpModule of 'mcp-reflect' (the standalone server's) is imported into it, beside McpModule of 'mcp-reflect/nest'.\n` +
      `Fix: import McpModule from 'mcp-reflect/nest' only; the standalone McpModule and McpFactory are for applications without Nest.`,
  );
}

function unprovided(classes: readonly Function[]): BootstrapError {
  const names = classes.map((c) => c.name);
  return new BootstrapError(
    BootstrapErrorCode.InvalidProvider,
    `Cannot serve the Nest application: ${names.join(', ')} ${names.length > 1 ? 'have' : 'has'} MCP components (@Tool(), @Resource(), @Prompt(), …) but no Nest module provides ${names.length > 1 ? 'them' : 'it'}, so ${names.length > 1 ? 'they' : 'it'} would not be served.\n` +
      `Fix: add ${names.join(', ')} to the providers of a module of the application; or, if ${names.length > 1 ? 'they belong' : 'it belongs'} to another application in this process, McpModule.forRoot({ warnings: { unprovidedComponents: false } }).`,
  );
}

function foreignHandle(target: Function): TypeError {
  return new TypeError(`Cannot build the request-scoped ${target.name}: the request handle was not opened by the Nest host.`);
}
