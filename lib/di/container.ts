import { Scope } from '../constants';
import type { Constructor, InjectionToken, ModuleImport, Provider } from '../interfaces';
import { Injector } from './injector';
import { callLifecycleHook, releaseBuilt, RELEASE_BOUND, type LifecycleHook } from './lifecycle';
import { checkExports, linkProviders, linkRecord, lookup } from './linker';
import { ProviderRecord, type ModuleRecord } from './module-record';
import { ModuleRef, moduleRefError, type ModuleRefGetOptions } from './module-ref';
import { classDefinition, scanModules, type ScanOptions } from './module-scanner';
import { RequestScope, requestStorage } from './request-scope';

export type ContainerOptions = Omit<ScanOptions, 'perModule'>;

/**
 * The application's providers: the module graph scanned and linked once, every singleton built at
 * bootstrap. Afterwards a singleton is a stored instance (no per-call cost); request-scoped providers are
 * built per request scope.
 */
export class Container {
  private readonly injector = new Injector();
  private modules: readonly ModuleRecord[] = [];
  private globals: readonly ModuleRecord[] = [];

  private constructor() {}

  static async create(root: ModuleImport, options: ContainerOptions = {}): Promise<Container> {
    const container = new Container();
    const perModule = (module: ModuleRecord): Provider[] => [
      { provide: ModuleRef, useValue: new ContainerModuleRef(container, module) },
    ];
    container.modules = await scanModules(root, { ...options, perModule });
    container.globals = container.modules.filter((m) => m.global);
    checkExports(container.modules);
    linkProviders(container.modules);
    try {
      for (const record of container.providers()) {
        if (record.scope !== Scope.TRANSIENT) await container.injector.instantiate(record);
      }
    } catch (error) {
      // A provider failed to build: the ones built before it (a connection a factory opened) are stopped.
      const failures = await container.release('bootstrap-failed', RELEASE_BOUND);
      if (failures.length > 0 && error !== null && typeof error === 'object' && Object.isExtensible(error)) {
        Object.defineProperty(error, 'cleanupErrors', { value: failures, configurable: true, writable: true });
      }
      throw error;
    }
    return container;
  }

  /** Every provider record, in module order (the built-in core module first). */
  *providers(): Iterable<ProviderRecord> {
    for (const module of this.modules) yield* module.providers.values();
  }

  /** Every module of the graph, in scan order (the built-in core module first). */
  get moduleRecords(): readonly ModuleRecord[] {
    return this.modules;
  }

  /** Whether any module provides `token`. */
  has(token: InjectionToken): boolean {
    return this.modules.some((m) => m.providers.has(token));
  }

  /** The singleton registered under `token` in any module, or undefined; throws for scoped providers. */
  get<T = unknown>(token: InjectionToken): T | undefined {
    for (const module of this.modules) {
      const record = module.providers.get(token);
      if (!record) continue;
      if (record.requestScoped || record.scope === Scope.TRANSIENT) throw moduleRefError(token, module.name, 'scoped');
      return record.instance as T;
    }
    return undefined;
  }

  /** The root module (the one given to `McpFactory.create()`). */
  get root(): ModuleRecord {
    return this.modules[1] ?? this.modules[0];
  }

  /** Every provider registered under a repeatable token (APP_GUARD, …), in module order. */
  multi(token: symbol): ProviderRecord[] {
    return [...this.providers()].filter((record) => record.multi === token);
  }

  /**
   * A class used by the application outside the providers (a guard, pipe, interceptor, filter or middleware
   * named in a decorator): the provider of that class visible from `module` if there is one, else a new
   * instance built in `module` with constructor injection. Request-scoped ones are built per request scope.
   */
  instanceFor(module: ModuleRecord, cls: Constructor): { instance: unknown } | { perRequest: (scope: RequestScope) => unknown } {
    const existing = lookup(module, cls, this.globals);
    const record = existing ?? new ProviderRecord(classDefinition(module, cls, cls));
    if (!existing) linkRecord(record, this.globals);
    if (record.requestScoped) return { perRequest: (scope) => this.injector.resolveInRequest(record, scope) };
    if (record.built) return { instance: record.instance };
    return { instance: this.injector.constructNow(record) };
  }

  /** An instance of a transient provider, for a consumer outside the graph (a tool host). */
  instantiateTransient(record: ProviderRecord): Promise<unknown> {
    return this.injector.instantiate(record);
  }

  /** The instance of `record` in a request scope (built on first use there). */
  resolveInRequest(record: ProviderRecord, scope: RequestScope): unknown {
    return this.injector.resolveInRequest(record, scope);
  }

  /** Runs `fn` with `scope` as the current request scope (AsyncLocalStorage). */
  runInRequest<T>(scope: RequestScope, fn: () => T): T {
    return requestStorage.run(scope, fn);
  }

  callHook(hook: LifecycleHook, ...args: unknown[]): Promise<void> {
    return callLifecycleHook(this.modules, hook, args);
  }

  /** After a failed bootstrap: every stopping hook of every built singleton, each bounded, none stopping the rest. */
  release(signal: string, bound: number): Promise<Error[]> {
    return releaseBuilt(this.modules, signal, bound);
  }

  /** @internal For ModuleRef. */
  find(module: ModuleRecord, token: InjectionToken, strict: boolean): ProviderRecord | undefined {
    if (strict) return module.providers.get(token);
    return lookup(module, token, this.globals) ?? [...this.providers()].find((r) => r.token === token);
  }

  /** @internal For ModuleRef.create(): links a throwaway record of `cls` in `module` and builds it. */
  async create<T>(module: ModuleRecord, cls: Constructor<T>): Promise<T> {
    // Built fresh every time: a transient record, never cached.
    const record = new ProviderRecord(classDefinition(module, cls, cls));
    linkRecord(record, this.globals);
    const scope = requestStorage.getStore();
    if (record.requestScoped) return (await this.injector.resolveInRequest(record, scope ?? new RequestScope())) as T;
    const transient = new ProviderRecord({ ...record.definition, scope: Scope.TRANSIENT });
    transient.link({ resolved: record.resolved, requestScoped: false });
    return (await this.injector.instantiate(transient)) as T;
  }
}

class ContainerModuleRef extends ModuleRef {
  constructor(
    private readonly container: Container,
    private readonly module: ModuleRecord,
  ) {
    super();
  }

  get<T>(token: InjectionToken, options: ModuleRefGetOptions = {}): T {
    const record = this.container.find(this.module, token, options.strict ?? true);
    if (!record) throw moduleRefError(token, this.module.name, 'missing');
    if (record.requestScoped || record.scope === Scope.TRANSIENT) throw moduleRefError(token, this.module.name, 'scoped');
    return record.instance as T;
  }

  async resolve<T>(token: InjectionToken, options: ModuleRefGetOptions = {}): Promise<T> {
    const record = this.container.find(this.module, token, options.strict ?? true);
    if (!record) throw moduleRefError(token, this.module.name, 'missing');
    if (record.requestScoped) {
      return (await this.container.resolveInRequest(record, requestStorage.getStore() ?? new RequestScope())) as T;
    }
    if (record.scope === Scope.TRANSIENT) return (await this.container.instantiateTransient(record)) as T;
    return record.instance as T;
  }

  create<T>(cls: Constructor<T>): Promise<T> {
    return this.container.create(this.module, cls);
  }
}
