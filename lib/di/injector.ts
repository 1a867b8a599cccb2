import { Scope } from '../constants';
import { BootstrapError, BootstrapErrorCode, ErrorCode, McpReflectError } from '../errors';
import { describeToken } from '../errors/describe';
import { causedBy, circularDependencyMessage, factoryFailedMessage, outsideRequestMessage } from './di.messages';
import type { ProviderRecord } from './module-record';
import type { RequestScope } from './request-scope';

// Errors that already tell the whole story (a cycle shows its path): never wrapped again on the way up.
const COMPLETE = new WeakSet<Error>();

/**
 * Builds instances. Singletons: once, at bootstrap, awaiting async factories. Request-scoped providers: per
 * request scope, synchronously unless an async factory is involved, so a request-scoped tool stays cheap.
 */
export class Injector {
  /** Builds (once) the singleton behind `record`. Transient providers get a fresh instance per call. */
  async instantiate(record: ProviderRecord, path: ProviderRecord[] = []): Promise<unknown> {
    if (record.requestScoped) return undefined;
    this.assertNoCycle(record, path);
    if (record.scope === Scope.TRANSIENT) return this.construct(record, path);
    const { state } = record;
    if (state.built) return state.instance;
    state.pending ??= this.construct(record, path).then((instance) => {
      state.instance = instance;
      state.built = true;
      state.pending = undefined;
      return instance;
    });
    return state.pending;
  }

  private async construct(record: ProviderRecord, path: ProviderRecord[]): Promise<unknown> {
    const here = [...path, record];
    const args: unknown[] = [];
    for (let i = 0; i < record.dependencies.length; i++) {
      const dependency = record.resolved![i];
      if (!dependency) {
        args.push(undefined);
        continue;
      }
      if (record.dependencies[i].forward && !dependency.built && isLateBindable(dependency)) {
        // forwardRef: the dependency is not built yet (it may be waiting for this very provider). Hand out its
        // early object now; the container builds it afterwards and fills that same object.
        dependency.state.early ??= Object.create(dependency.recipe.useClass.prototype);
        args.push(dependency.state.early);
        continue;
      }
      try {
        args.push(await this.instantiate(dependency, here));
      } catch (error) {
        if (!(error instanceof BootstrapError) || COMPLETE.has(error)) throw error;
        throw new BootstrapError(error.code, causedBy(record.owner, error), { cause: error });
      }
    }
    return this.make(record, args, undefined);
  }

  /**
   * Builds a class record now, synchronously, from dependencies that are already built (after bootstrap
   * every singleton is); transient class dependencies are built fresh the same way.
   */
  constructNow(record: ProviderRecord): unknown {
    const args = (record.resolved ?? []).map((dependency) => {
      if (!dependency) return undefined;
      if (dependency.built) return dependency.instance;
      if (dependency.scope === Scope.TRANSIENT && dependency.recipe.kind === 'class') return this.constructNow(dependency);
      throw new BootstrapError(
        BootstrapErrorCode.InvalidProvider,
        `Cannot create ${record.owner}: its dependency ${dependency.owner} is not built yet (it is made by an async factory, or is transient).\n` +
          `Fix: provide ${dependency.owner} as a singleton, or inject ModuleRef and resolve it when needed.`,
      );
    });
    return this.make(record, args, undefined);
  }

  /** The instance of `record` inside a request: cached in the scope, built on first use. */
  resolveInRequest(record: ProviderRecord, scope: RequestScope): unknown {
    if (!record.requestScoped) {
      return record.scope === Scope.TRANSIENT ? this.construct(record, []) : record.instance;
    }
    const cached = scope.instances.get(record);
    if (cached !== undefined || scope.instances.has(record)) return cached;
    if (scope.building.has(record)) {
      if (record.recipe.kind !== 'class') throw new BootstrapError(BootstrapErrorCode.CircularDependency, circularDependencyMessage([record.owner, record.owner]));
      const early = scope.building.get(record) ?? Object.create(record.recipe.useClass.prototype);
      scope.building.set(record, early);
      return early;
    }
    scope.building.set(record, undefined);
    const args = record.resolved.map((dependency) => (dependency ? this.resolveInRequest(dependency, scope) : undefined));
    const finish = (values: unknown[]) => {
      const instance = this.make(record, values, scope);
      const early = scope.building.get(record);
      scope.building.delete(record);
      const value = early ? Object.assign(early, instance) : instance;
      if (record.scope !== Scope.TRANSIENT) scope.instances.set(record, value);
      return value;
    };
    if (!args.some(isThenable)) {
      const value = finish(args);
      return isThenable(value) ? this.settle(record, scope, value) : value;
    }
    return Promise.all(args).then(finish).then((value) => (isThenable(value) ? this.settle(record, scope, value) : value));
  }

  private settle(record: ProviderRecord, scope: RequestScope, pending: PromiseLike<unknown>): Promise<unknown> {
    const promise = Promise.resolve(pending).then((value) => {
      if (record.scope !== Scope.TRANSIENT) scope.instances.set(record, value);
      return value;
    });
    if (record.scope !== Scope.TRANSIENT) scope.instances.set(record, promise);
    return promise;
  }

  /** Runs the recipe with its arguments; a factory's promise is returned as is (awaited by the caller). */
  private make(record: ProviderRecord, args: unknown[], scope: RequestScope | undefined): any {
    const { recipe } = record;
    switch (recipe.kind) {
      case 'value':
        return recipe.useValue;
      case 'existing':
        return args[0];
      case 'request-value':
        if (!scope || !(recipe.key in scope.values)) {
          throw new McpReflectError(ErrorCode.OutsideRequest, outsideRequestMessage(record.token));
        }
        return scope.values[recipe.key];
      case 'class': {
        const instance = new recipe.useClass(...args);
        if (!record.state.early || scope) return instance;
        return Object.assign(record.state.early, instance);
      }
      case 'factory':
        return scope ? recipe.useFactory(...args) : this.runFactory(record, args);
    }
  }

  private async runFactory(record: ProviderRecord, args: unknown[]): Promise<unknown> {
    if (record.recipe.kind !== 'factory') return undefined;
    try {
      return await record.recipe.useFactory(...args);
    } catch (error) {
      throw new BootstrapError(
        BootstrapErrorCode.FactoryFailed,
        factoryFailedMessage(record.token, record.module.name, error),
        { cause: error },
      );
    }
  }

  private assertNoCycle(record: ProviderRecord, path: ProviderRecord[]): void {
    if (!path.includes(record)) return;
    const names = [...path.slice(path.indexOf(record)), record].map((r) => describeToken(r.token));
    const error = new BootstrapError(BootstrapErrorCode.CircularDependency, circularDependencyMessage(names));
    COMPLETE.add(error);
    throw error;
  }
}

function isLateBindable(record: ProviderRecord): record is ProviderRecord & { recipe: { kind: 'class'; useClass: new (...args: any[]) => object } } {
  return record.recipe.kind === 'class' && record.scope === Scope.DEFAULT && !record.requestScoped;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}
