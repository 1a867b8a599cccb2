import { Scope } from '../constants';
import type { InjectionToken } from '../interfaces';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import { describeToken } from '../errors/describe';
import { causedBy, invalidExportMessage, unknownDependencyMessage } from './di.messages';
import { resolveToken } from './forward-ref';
import type { ModuleRecord, ProviderRecord } from './module-record';

/**
 * Resolves, once at bootstrap, every dependency of every provider to the provider it names (with module
 * visibility: own providers, then imported modules' exports, then global modules), and marks what lives
 * per request: REQUEST providers and, bubbling up, everything that depends on one. Each record is linked
 * once, when both are known.
 */
export function linkProviders(modules: readonly ModuleRecord[]): void {
  const globals = modules.filter((m) => m.global);
  const resolved = new Map<ProviderRecord, (ProviderRecord | undefined)[]>();
  for (const module of modules) for (const record of module.providers.values()) resolveTree(record, globals, resolved, []);
  const scoped = requestScopes(resolved);
  for (const [record, dependencies] of resolved) if (!record.linked) record.link({ resolved: dependencies, requestScoped: scoped.has(record) });
}

/**
 * Resolves a provider after its dependencies (depth first), so a failure deep down reads as a chain:
 * "Cannot create A because a dependency failed. Reason: / Cannot create B because …".
 */
function resolveTree(
  record: ProviderRecord,
  globals: readonly ModuleRecord[],
  resolved: Map<ProviderRecord, (ProviderRecord | undefined)[]>,
  path: ProviderRecord[],
): void {
  if (resolved.has(record) || path.includes(record)) return;
  const dependencies = record.linked ? [...record.resolved] : resolveDependencies(record, globals);
  const here = [...path, record];
  for (const dependency of dependencies) {
    if (!dependency) continue;
    try {
      resolveTree(dependency, globals, resolved, here);
    } catch (error) {
      if (!(error instanceof BootstrapError)) throw error;
      throw new BootstrapError(error.code, causedBy(record.owner, error), { cause: error });
    }
  }
  resolved.set(record, dependencies);
}

/** Links one provider outside the graph (a guard class, ModuleRef.create): the graph is linked already. */
export function linkRecord(record: ProviderRecord, globals: readonly ModuleRecord[]): void {
  if (record.linked) return;
  const resolved = resolveDependencies(record, globals);
  record.link({ resolved, requestScoped: record.scope === Scope.REQUEST || resolved.some((r) => r?.requestScoped) });
}

function resolveDependencies(record: ProviderRecord, globals: readonly ModuleRecord[]): (ProviderRecord | undefined)[] {
  return record.dependencies.map((dependency, index) => {
    const token = resolveToken(dependency.token);
    const found = lookup(record.module, token, globals);
    if (found || dependency.optional) return found;
    throw new BootstrapError(
      BootstrapErrorCode.UnknownDependency,
      unknownDependencyMessage({
        owner: record.owner,
        signature: record.dependencies.map((d) => signatureName(resolveToken(d.token))),
        index,
        token,
        module: record.module.name,
      }),
    );
  });
}

/** Every exported token must be the module's own provider or come from a module it imports. */
export function checkExports(modules: readonly ModuleRecord[]): void {
  for (const module of modules) {
    for (const token of module.exportedTokens) {
      if (module.providers.has(token) || findInImports(module, token)) continue;
      throw new BootstrapError(BootstrapErrorCode.InvalidExport, invalidExportMessage(token, module.name));
    }
  }
}

/** The provider visible as `token` from `module`, or undefined. */
export function lookup(module: ModuleRecord, token: InjectionToken, globals: readonly ModuleRecord[]): ProviderRecord | undefined {
  return (
    module.providers.get(token) ??
    findInImports(module, token) ??
    globals.map((m) => findExported(m, token, new Set())).find((r) => r !== undefined)
  );
}

/** Request scope bubbles up to dependants; a fixpoint, so cycles through forwardRef are handled too. */
function requestScopes(resolved: ReadonlyMap<ProviderRecord, readonly (ProviderRecord | undefined)[]>): Set<ProviderRecord> {
  const scoped = new Set([...resolved.keys()].filter((record) => record.scope === Scope.REQUEST || record.requestScoped));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [record, dependencies] of resolved) {
      if (scoped.has(record) || !dependencies.some((d) => d !== undefined && (scoped.has(d) || d.requestScoped))) continue;
      scoped.add(record);
      changed = true;
    }
  }
  return scoped;
}

function signatureName(token: InjectionToken | undefined): string {
  if (typeof token === 'function' && token !== Object) return token.name;
  return token === undefined ? 'undefined' : describeToken(token);
}

function findInImports(
  module: ModuleRecord,
  token: InjectionToken,
  seen: Set<ModuleRecord> = new Set([module]),
): ProviderRecord | undefined {
  for (const imported of module.imports) {
    const found = findExported(imported, token, new Set(seen)); // siblings may reach the same module
    if (found) return found;
  }
  return undefined;
}

/** The provider `module` makes visible to its importers: its own exported providers, then re-exported modules. */
function findExported(module: ModuleRecord, token: InjectionToken, seen: Set<ModuleRecord>): ProviderRecord | undefined {
  if (seen.has(module)) return undefined;
  seen.add(module);
  if (module.exportedTokens.has(token)) return module.providers.get(token) ?? findInImports(module, token, seen);
  for (const reexported of module.exportedModules) {
    const found = findExported(reexported, token, seen);
    if (found) return found;
  }
  return undefined;
}
