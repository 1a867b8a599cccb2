import type { InjectionToken, ModuleImport } from '../interfaces';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import { describeToken } from '../errors/describe';
import { getConstructorParamTypes, getInjectTokens } from '../metadata';
import {
  causedBy,
  circularDependencyMessage,
  factoryFailedMessage,
  notInjectableMessage,
  unknownDependencyMessage,
} from './di.messages';
import type { ModuleRecord, ProviderRecord } from './module-record';
import { scanModules } from './module-scanner';

/**
 * The application's providers: scanned once, every singleton built once at bootstrap. After `init()`,
 * `get()` is a map lookup, so resolving costs nothing per call.
 */
export class Container {
  private constructor(readonly modules: readonly ModuleRecord[]) {}

  static async create(root: ModuleImport): Promise<Container> {
    const container = new Container(await scanModules(root));
    await container.instantiateAll();
    return container;
  }

  /** Every provider record with its built instance, in module order. */
  *providers(): Iterable<ProviderRecord> {
    for (const module of this.modules) yield* module.providers.values();
  }

  /** The instance registered under `token` in any module, or undefined. */
  get<T = unknown>(token: InjectionToken): T | undefined {
    for (const module of this.modules) {
      const record = module.providers.get(token);
      if (record) return record.instance as T;
    }
    return undefined;
  }

  private async instantiateAll(): Promise<void> {
    for (const record of this.providers()) await this.build(record, []);
  }

  private build(record: ProviderRecord, path: ProviderRecord[]): Promise<unknown> {
    if ('instance' in record && record.pending === undefined) return Promise.resolve(record.instance);
    if (path.includes(record)) {
      const names = [...path.slice(path.indexOf(record)), record].map((r) => describeToken(r.token));
      const error = new BootstrapError(BootstrapErrorCode.CircularDependency, circularDependencyMessage(names));
      CYCLES.add(error);
      throw error;
    }
    record.pending ??= this.construct(record, [...path, record]).then((instance) => {
      record.instance = instance;
      record.pending = undefined;
      return instance;
    });
    return record.pending;
  }

  private async construct(record: ProviderRecord, path: ProviderRecord[]): Promise<unknown> {
    const { recipe, module } = record;
    switch (recipe.kind) {
      case 'value':
        return recipe.useValue;
      case 'existing':
        return this.build(
          this.lookup(module, recipe.useExisting, describeToken(record.token), [describeToken(recipe.useExisting)], 0),
          path,
        );
      case 'factory': {
        const owner = `the factory of ${describeToken(record.token)}`;
        const args = await this.resolveAll(module, recipe.inject, owner, recipe.inject.map(describeToken), path);
        try {
          return await recipe.useFactory(...args);
        } catch (error) {
          throw new BootstrapError(
            BootstrapErrorCode.InvalidProvider,
            factoryFailedMessage(record.token, module.name, error),
            { cause: error },
          );
        }
      }
      case 'class': {
        const cls = recipe.useClass;
        const reflected = getConstructorParamTypes(cls);
        if (!reflected && cls.length > 0) {
          throw new BootstrapError(
            BootstrapErrorCode.NotInjectable,
            notInjectableMessage(cls.name, module.name, cls.length),
          );
        }
        const explicit = getInjectTokens(cls);
        const tokens = (reflected ?? []).map((type, i) => explicit[i] ?? (type as InjectionToken));
        const signature = tokens.map((t) => (typeof t === 'function' && t !== Object ? t.name : describeToken(t)));
        const args = await this.resolveAll(module, tokens, cls.name, signature, path);
        return new cls(...args);
      }
    }
  }

  private async resolveAll(
    module: ModuleRecord,
    tokens: InjectionToken[],
    owner: string,
    signature: string[],
    path: ProviderRecord[],
  ): Promise<unknown[]> {
    const values: unknown[] = [];
    for (let index = 0; index < tokens.length; index++) {
      const dependency = this.lookup(module, tokens[index], owner, signature, index);
      try {
        values.push(await this.build(dependency, path));
      } catch (error) {
        // A cycle's message already shows the whole path; wrapping it once per provider on the path only repeats it.
        if (!(error instanceof BootstrapError) || path.length === 0 || CYCLES.has(error)) throw error;
        throw new BootstrapError(error.code, causedBy(owner, error), { cause: error });
      }
    }
    return values;
  }

  private lookup(
    module: ModuleRecord,
    token: InjectionToken,
    owner: string,
    signature: string[],
    index: number,
  ): ProviderRecord {
    const found =
      module.providers.get(token) ??
      findInImports(module, token) ??
      this.modules.filter((m) => m.global).map((m) => findExported(m, token, new Set()))
        .find((r) => r !== undefined);
    if (found) return found;
    throw new BootstrapError(
      BootstrapErrorCode.UnknownDependency,
      unknownDependencyMessage({ owner, signature, index, token, module: module.name }),
    );
  }
}

const CYCLES = new WeakSet<Error>();

function findInImports(module: ModuleRecord, token: InjectionToken): ProviderRecord | undefined {
  for (const imported of module.imports) {
    const found = findExported(imported, token, new Set());
    if (found) return found;
  }
  return undefined;
}

/** The provider `module` makes visible to its importers: its own exported providers, then re-exported modules. */
function findExported(module: ModuleRecord, token: InjectionToken, seen: Set<ModuleRecord>): ProviderRecord | undefined {
  if (seen.has(module)) return undefined;
  seen.add(module);
  if (module.exportedTokens.has(token)) {
    return module.providers.get(token) ?? findInImports(module, token);
  }
  for (const reexported of module.exportedModules) {
    const found = findExported(reexported, token, seen);
    if (found) return found;
  }
  return undefined;
}
