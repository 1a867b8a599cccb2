import { MULTI_TOKENS, Scope } from '../constants';
import type { Constructor, DependencyToken, DynamicModule, InjectionToken, ModuleImport, Provider } from '../interfaces';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import { describeToken } from '../errors/describe';
import {
  getConstructorParamTypes,
  getInjectTokens,
  getInjectableOptions,
  getModuleMetadata,
  getOptionalDependencies,
  isGlobalModule,
} from '../metadata';
import {
  duplicateProviderMessage,
  invalidModuleMessage,
  invalidProviderMessage,
  notInjectableMessage,
  unknownOverrideMessage,
} from './di.messages';
import { isForwardRef } from './forward-ref';
import { ModuleRecord, ProviderRecord, type Dependency, type ProviderDefinition } from './module-record';

type ModuleKey = Function | DynamicModule;

export interface ScanOptions {
  /** Providers that replace, wherever they are declared, the provider with the same token (testing). */
  readonly overrides?: ReadonlyMap<InjectionToken, Provider>;
  /** Providers of a built-in global module (the request Context, for instance). */
  readonly globals?: readonly Provider[];
  /** Builds the per-module providers every module gets (ModuleRef). */
  readonly perModule?: (module: ModuleRecord) => readonly Provider[];
}

/** Walks the module graph once from the root and returns every module, the built-in core first. */
export async function scanModules(root: ModuleImport, options: ScanOptions = {}): Promise<ModuleRecord[]> {
  const records = new Map<ModuleKey, ModuleRecord>();
  const ordered: ModuleRecord[] = [];

  const core = new ModuleRecord(class McpReflectCoreModule {}, 'McpReflectCoreModule');
  core.global = true;
  (options.globals ?? []).forEach((provider, index) => addProvider(core, provider, index, options));
  for (const token of core.providers.keys()) core.exportedTokens.add(token);
  ordered.push(core);

  const visit = async (entry: ModuleImport, parent: string): Promise<ModuleRecord> => {
    const resolved = isForwardRef(entry) ? entry.forwardRef() : await entry;
    const key = normalizeKey(resolved, parent);
    const known = records.get(key);
    if (known) return known;

    const metatype = typeof key === 'function' ? key : key.module;
    const metadata = getModuleMetadata(metatype) ?? {};
    const dynamic = typeof key === 'function' ? undefined : key;
    const record = new ModuleRecord(metatype, metatype.name);
    record.global = dynamic?.global ?? isGlobalModule(metatype);
    records.set(key, record);
    ordered.push(record);

    const providers = [...(metadata.providers ?? []), ...(dynamic?.providers ?? []), ...(options.perModule?.(record) ?? [])];
    providers.forEach((provider, index) => addProvider(record, provider, index, options));
    for (const child of [...(metadata.imports ?? []), ...(dynamic?.imports ?? [])]) {
      record.imports.push(await visit(child, record.name));
    }
    for (const exported of [...(metadata.exports ?? []), ...(dynamic?.exports ?? [])]) {
      const asModule = findModule(exported, records);
      if (asModule) record.exportedModules.push(asModule);
      else record.exportedTokens.add(exported as InjectionToken);
    }
    return record;
  };

  await visit(root, 'the application');
  for (const token of options.overrides?.keys() ?? []) {
    if (!ordered.some((m) => m.providers.has(token))) {
      throw new BootstrapError(BootstrapErrorCode.UnknownOverride, unknownOverrideMessage(token));
    }
  }
  computeDepths(ordered);
  return ordered;
}

function normalizeKey(value: unknown, parent: string): ModuleKey {
  if (typeof value === 'function' && getModuleMetadata(value)) return value;
  if (value && typeof value === 'object' && typeof (value as DynamicModule).module === 'function') {
    return value as DynamicModule;
  }
  throw new BootstrapError(BootstrapErrorCode.InvalidModule, invalidModuleMessage(value, parent));
}

function findModule(exported: unknown, records: Map<ModuleKey, ModuleRecord>): ModuleRecord | undefined {
  const direct = records.get(exported as ModuleKey);
  if (direct) return direct;
  // A module class listed in exports while a dynamic variant of it was imported: re-export that variant.
  if (typeof exported === 'function' && getModuleMetadata(exported)) {
    for (const [key, record] of records) if (typeof key !== 'function' && key.module === exported) return record;
  }
  return undefined;
}

/** Longest import chain below each module (cycles through forwardRef are cut). */
function computeDepths(modules: ModuleRecord[]): void {
  const visiting = new Set<ModuleRecord>();
  const done = new Set<ModuleRecord>();
  const depth = (module: ModuleRecord): number => {
    if (done.has(module)) return module.depth;
    if (visiting.has(module)) return 0;
    visiting.add(module);
    module.depth = module.imports.reduce((max, child) => Math.max(max, depth(child) + 1), 0);
    visiting.delete(module);
    done.add(module);
    return module.depth;
  };
  modules.forEach(depth);
}

function addProvider(module: ModuleRecord, provider: Provider, index: number, options: ScanOptions): void {
  const token = tokenOf(provider, module, index);
  if (typeof token === 'symbol' && MULTI_TOKENS.includes(token)) {
    // APP_GUARD and its kin may repeat: each gets a token of its own, and remembers the one it was given.
    const own = Symbol(`${token.description}#${module.name}#${index}`);
    module.providers.set(own, new ProviderRecord({ ...toDefinition(module, own, provider, index), multi: token }));
    return;
  }
  if (module.providers.has(token)) {
    throw new BootstrapError(BootstrapErrorCode.DuplicateProvider, duplicateProviderMessage(token, module.name));
  }
  const effective = options.overrides?.get(token) ?? provider;
  module.providers.set(token, new ProviderRecord(toDefinition(module, token, effective, index)));
}

function tokenOf(provider: Provider, module: ModuleRecord, index: number): InjectionToken {
  if (typeof provider === 'function') return provider;
  if (provider && typeof provider === 'object' && 'provide' in provider) return provider.provide;
  throw new BootstrapError(BootstrapErrorCode.InvalidProvider, invalidProviderMessage(provider, module.name, index));
}

function toDefinition(module: ModuleRecord, token: InjectionToken, provider: Provider, index: number): ProviderDefinition {
  if (typeof provider === 'function') return classDefinition(module, token, provider as Constructor);
  if (provider && typeof provider === 'object') {
    if ('useClass' in provider && typeof provider.useClass === 'function') {
      return classDefinition(module, token, provider.useClass, provider.scope);
    }
    if ('useValue' in provider) {
      return { token, module, recipe: { kind: 'value', useValue: provider.useValue }, scope: Scope.DEFAULT, dependencies: [], owner: describeToken(token) };
    }
    if ('useFactory' in provider && typeof provider.useFactory === 'function') {
      const dependencies = (provider.inject ?? []).map((entry): Dependency => {
        const explicit = typeof entry === 'object' && entry !== null && 'token' in entry;
        const dep = explicit ? (entry as { token: DependencyToken }).token : (entry as DependencyToken);
        const optional = explicit && (entry as { optional?: boolean }).optional === true;
        return { token: dep, optional, forward: isForwardRef(dep) };
      });
      return {
        token,
        module,
        recipe: { kind: 'factory', useFactory: provider.useFactory },
        scope: provider.scope ?? Scope.DEFAULT,
        dependencies,
        owner: `the factory of ${describeToken(token)}`,
      };
    }
    if ('useExisting' in provider) {
      const target = provider.useExisting;
      return {
        token,
        module,
        recipe: { kind: 'existing', useExisting: target },
        scope: Scope.DEFAULT,
        dependencies: [{ token: target, optional: false, forward: isForwardRef(target) }],
        owner: describeToken(token),
      };
    }
    if ('useRequestValue' in provider) {
      const key = (provider as { useRequestValue: string }).useRequestValue;
      return { token, module, recipe: { kind: 'request-value', key }, scope: Scope.REQUEST, dependencies: [], owner: describeToken(token) };
    }
  }
  throw new BootstrapError(BootstrapErrorCode.InvalidProvider, invalidProviderMessage(provider, module.name, index));
}

/** How the container builds `cls` (constructor injection) as `token` in `module`. */
export function classDefinition(module: ModuleRecord, token: InjectionToken, cls: Constructor, scope?: Scope): ProviderDefinition {
  const reflected = getConstructorParamTypes(cls);
  if (!reflected && cls.length > 0) {
    throw new BootstrapError(BootstrapErrorCode.NotInjectable, notInjectableMessage(cls.name, module.name, cls.length));
  }
  const explicit = getInjectTokens(cls);
  const optional = new Set(getOptionalDependencies(cls));
  const dependencies = (reflected ?? []).map((type, i): Dependency => {
    const dep = explicit[i] ?? (type as InjectionToken);
    return { token: dep, optional: optional.has(i), forward: isForwardRef(dep) };
  });
  return {
    token,
    module,
    recipe: { kind: 'class', useClass: cls },
    scope: scope ?? getInjectableOptions(cls)?.scope ?? Scope.DEFAULT,
    dependencies,
    owner: cls.name,
  };
}
