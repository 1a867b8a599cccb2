import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_MIDDLEWARE, APP_PIPE, CONTEXT, MCP_OPTIONS } from '../../constants';
import { Context } from '../../context';
import { Container, type ModuleRecord } from '../../di';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import type { InjectionToken, McpMiddleware, ModuleImport, Provider } from '../../interfaces';
import type { MethodHost, RequestScopeOpener } from '../../invocation';
import type { GeneratedTypes } from '../../metadata';
import { Reflector, type ComponentEnhancers } from '../../pipeline';
import { EnhancerResolver } from './enhancer-resolver';
import { collectHosts } from './collect-hosts';
import type { McpHost } from '../host';
import type { McpModuleOptions } from '../mcp-options';

/**
 * The standalone host: mcp-reflect's own container (modules, providers, constructor injection, request scope,
 * lifecycle hooks) supplies the instances, and the enhancer resolver builds the guards, interceptors, pipes
 * and filters the decorators name, in the module of the class they decorate.
 */
export class NativeHost implements McpHost {
  readonly options: McpModuleOptions;
  private resolver?: EnhancerResolver;
  /** The module of each component host, whose providers its enhancers may inject (added objects: the root). */
  private readonly modules = new WeakMap<MethodHost, ModuleRecord>();

  private constructor(private readonly container: Container) {
    const settings = container.get<McpModuleOptions>(MCP_OPTIONS);
    if (!settings) {
      throw new BootstrapError(
        BootstrapErrorCode.McpModuleMissing,
        `Cannot create the MCP server: McpModule is not imported anywhere in the module graph, so the server has no name or version.\n` +
          `Fix: add McpModule.forRoot({ name: 'my-server', version: '1.0.0' }) to the imports of the root module.`,
      );
    }
    this.options = settings;
  }

  /** Scans the module graph of `root` and builds every provider (overrides replace providers by token). */
  static async create(root: ModuleImport, options: { overrides?: ReadonlyMap<InjectionToken, Provider> } = {}): Promise<NativeHost> {
    const container = await Container.create(root, {
      overrides: options.overrides,
      globals: [
        // The request's Context, injectable into request-scoped providers by its class or the CONTEXT token.
        { provide: Context, useRequestValue: 'context' } as unknown as Provider,
        { provide: CONTEXT, useRequestValue: 'context' } as unknown as Provider,
        // Guards and interceptors read custom metadata with it (`constructor(private reflector: Reflector)`).
        { provide: Reflector, useValue: new Reflector() },
      ],
    });
    return new NativeHost(container);
  }

  get name(): string {
    return this.container.root.name;
  }

  async init(): Promise<void> {
    await this.container.callHook('onModuleInit');
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
    const found = await collectHosts(this.container, types);
    for (const record of found) this.modules.set(record, record.module);
    return found;
  }

  adopt(instance: object, types: GeneratedTypes, namespace?: string): MethodHost {
    return { target: instance.constructor, instance, types, ...(namespace ? { namespace } : {}) };
  }

  enhancersFor(component: MethodHost, method: string): ComponentEnhancers {
    return this.enhancers.forMethod(component.target, this.modules.get(component) ?? this.container.root, method);
  }

  get middleware(): readonly McpMiddleware[] {
    return this.enhancers.middleware;
  }

  get openScope(): RequestScopeOpener {
    return this.enhancers.openScope;
  }

  has(token: InjectionToken): boolean {
    return this.container.has(token);
  }

  get<T>(token: InjectionToken): T | undefined {
    return this.container.get<T>(token);
  }

  async ready(): Promise<void> {
    await this.container.callHook('onApplicationBootstrap');
  }

  async shutdown(signal?: string): Promise<void> {
    await this.container.callHook('onModuleDestroy');
    await this.container.callHook('beforeApplicationShutdown', signal);
    await this.container.callHook('onApplicationShutdown', signal);
  }

  private get enhancers(): EnhancerResolver {
    if (!this.resolver) throw new Error('NativeHost: init() must run before enhancers are asked for');
    return this.resolver;
  }
}
