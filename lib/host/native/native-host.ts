import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_MIDDLEWARE, APP_PIPE, CONTEXT } from '../../constants';
import { Context } from '../../context';
import { Container, type ModuleRecord } from '../../di';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import type { InjectionToken, McpMiddleware, ModuleImport, Provider } from '../../interfaces';
import type { MethodHost, ProvidedMethods, RequestScopeOpener } from '../../invocation';
import type { GeneratedTypes } from '../../metadata';
import { Reflector, type ComponentEnhancers } from '../../pipeline';
import { EnhancerResolver } from './enhancer-resolver';
import { collectHosts } from './collect-hosts';
import type { McpHost } from '../host';
import type { McpModuleOptions } from '../mcp-options';
import { findServers, SharedLifecycle, type ServerDeclaration } from './servers';

/**
 * The standalone host: mcp-reflect's own container (modules, providers, constructor injection, request scope,
 * lifecycle hooks) supplies the instances, and the enhancer resolver builds the guards, interceptors, pipes
 * and filters the decorators name, in the module of the class they decorate.
 */
export class NativeHost implements McpHost {
  private resolver?: EnhancerResolver;
  /** The module of each component host, whose providers its enhancers may inject (added objects: the root). */
  private readonly modules = new WeakMap<MethodHost, ModuleRecord>();

  private constructor(
    private readonly container: Container,
    private readonly server: ServerDeclaration,
    private readonly lifecycle: SharedLifecycle,
  ) {}

  get options(): McpModuleOptions {
    return this.server.options;
  }

  /** Scans the module graph of `root` and builds every provider (overrides replace providers by token). */
  static async create(root: ModuleImport, options: { overrides?: ReadonlyMap<InjectionToken, Provider> } = {}): Promise<NativeHost> {
    const container = await NativeHost.container(root, options);
    const servers = findServers(container);
    if (servers.length > 1) {
      throw new BootstrapError(
        BootstrapErrorCode.InvalidOption,
        `Cannot create one MCP server from ${container.root.name}: it declares ${servers.length} (${servers.map((s) => `'${s.options.name}'`).join(', ')}).
` +
          `Fix: create them all with McpFactory.createServers(${container.root.name}), or keep one McpModule.forRoot().`,
      );
    }
    return new NativeHost(container, NativeHost.declared(servers[0]), new SharedLifecycle(container, 1));
  }

  /** One host per server the graph of `root` declares, on one container (its providers are shared). */
  static async createAll(root: ModuleImport, options: { overrides?: ReadonlyMap<InjectionToken, Provider> } = {}): Promise<NativeHost[]> {
    const container = await NativeHost.container(root, options);
    const servers = findServers(container);
    if (servers.length === 0) NativeHost.declared(undefined);
    const lifecycle = new SharedLifecycle(container, servers.length);
    return servers.map((server) => new NativeHost(container, server, lifecycle));
  }

  private static container(root: ModuleImport, options: { overrides?: ReadonlyMap<InjectionToken, Provider> }): Promise<Container> {
    return Container.create(root, {
      overrides: options.overrides,
      globals: [
        // The request's Context, injectable into request-scoped providers by its class or the CONTEXT token.
        { provide: Context, useRequestValue: 'context' } as unknown as Provider,
        { provide: CONTEXT, useRequestValue: 'context' } as unknown as Provider,
        // Guards and interceptors read custom metadata with it (`constructor(private reflector: Reflector)`).
        { provide: Reflector, useValue: new Reflector() },
      ],
    });
  }

  private static declared(server: ServerDeclaration | undefined): ServerDeclaration {
    if (server?.options) return server;
    throw new BootstrapError(
      BootstrapErrorCode.McpModuleMissing,
      `Cannot create the MCP server: McpModule is not imported anywhere in the module graph, so the server has no name or version.\n` +
        `Fix: add McpModule.forRoot({ name: 'my-server', version: '1.0.0' }) to the imports of the root module.`,
    );
  }

  /** @internal A server of several failed to build: the others stop waiting for it. */
  failed(error: unknown): void {
    this.lifecycle.fail(error);
  }

  get name(): string {
    return this.container.root.name;
  }

  async init(): Promise<void> {
    await this.lifecycle.init();
    const { container } = this;
    this.resolver = new EnhancerResolver(container, this.options, {
      guards: container.multi(APP_GUARD),
      interceptors: container.multi(APP_INTERCEPTOR),
      pipes: container.multi(APP_PIPE),
      filters: container.multi(APP_FILTER),
      middleware: container.multi(APP_MIDDLEWARE),
    });
  }

  async components(types: GeneratedTypes): Promise<readonly MethodHost[]> {
    const found = await collectHosts(this.container, types, this.server.served);
    for (const record of found) this.modules.set(record, record.module);
    return found;
  }

  adopt(instance: object, types: GeneratedTypes, namespace?: string, provided?: ProvidedMethods): MethodHost {
    return { target: provided?.target ?? instance.constructor, instance, types, ...(namespace ? { namespace } : {}), ...(provided ? { provided } : {}) };
  }

  enhancersFor(component: MethodHost, method: string): ComponentEnhancers {
    return this.enhancers.forMethod(component, this.modules.get(component) ?? this.container.root, method);
  }

  get middleware(): readonly McpMiddleware[] {
    return this.enhancers.middleware;
  }

  get openScope(): RequestScopeOpener {
    return this.enhancers.openScope;
  }

  has(token: InjectionToken): boolean {
    return this.server.module.providers.has(token) || this.container.has(token);
  }

  /** The server's own first (its McpComponents, its options), then any module's. */
  get<T>(token: InjectionToken): T | undefined {
    const own = this.server.module.providers.get(token);
    return own && !own.requestScoped ? (own.instance as T) : this.container.get<T>(token);
  }

  async ready(): Promise<void> {
    await this.lifecycle.ready();
  }

  async shutdown(signal?: string): Promise<void> {
    await this.lifecycle.shutdown(signal);
  }

  abandon(bound: number): Promise<Error[]> {
    return this.lifecycle.abandon(bound);
  }

  private get enhancers(): EnhancerResolver {
    if (!this.resolver) throw new Error('NativeHost: init() must run before enhancers are asked for');
    return this.resolver;
  }
}
