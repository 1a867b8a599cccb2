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
 * per request: REQUEST providers and, bubbling up, everything that depends on one.
 */
export function linkProviders(modules: readonly ModuleRecord[]): void {
  const globals = modules.filter((m) => m.global);
  const linked = new Set<ProviderRecord>();
  for (const module of modules) for (const record of module.providers.values()) linkTree(record, globals, linked, []);
  markRequestScopes(modules.flatMap((m) => [...m.providers.values()]));
}

/**
 * Links a provider after its dependencies (depth first), so a failure deep down reads as a chain:
 * "Cannot create A because a dependency failed. Reason: / Cannot create B because …".
 */
function linkTree(record: ProviderRecord, globals: readonly ModuleRecord[], linked: Set<ProviderRecord>, path: ProviderRecord[]): void {
  if (linked.has(record) || path.includes(record)) return;
  linkRecord(record, globals);
  const here = [...path, record];
  for (const dependency of record.resolved ?? []) {
    if (!dependency) continue;
    try {
      linkTree(dependency, globals, linked, here);
    } catch (error) {
      if (!(error instanceof BootstrapError)) throw error;
      throw new BootstrapError(error.code, causedBy(record.owner, error), { cause: error });
    }
  }
  linked.add(record);
}

/** Links one provider in its module; for a record outside the graph (ModuleRef.create) it also sets its scope. */
export function linkRecord(record: ProviderRecord, globals: readonly ModuleRecord[]): void {
  if (record.resolved) return;
  record.resolved = record.dependencies.map((dependency, index) => {
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
  if (record.requestScoped === undefined && record.resolved.every((r) => !r || r.requestScoped !== undefined)) {
    record.requestScoped = record.scope === Scope.REQUEST || record.resolved.some((r) => r?.requestScoped);
  }
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
function markRequestScopes(records: ProviderRecord[]): void {
  for (const record of records) record.requestScoped = record.scope === Scope.REQUEST;
  // (linkRecord may have set a value early; the fixpoint below recomputes every record from scratch.)
  for (let changed = true; changed; ) {
    changed = false;
    for (const record of records) {
      if (record.requestScoped) continue;
      if (record.resolved?.some((dependency) => dependency?.requestScoped)) {
        record.requestScoped = true;
        changed = true;
      }
    }
  }
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
