import type { DynamicModule, InjectionToken, ModuleImport, Provider } from '../interfaces';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import { getModuleMetadata } from '../metadata';
import { invalidModuleMessage, invalidProviderMessage } from './di.messages';
import { ModuleRecord, type ProviderRecord } from './module-record';

type ModuleKey = Function | DynamicModule;

/** Walks the module graph once from the root and returns every module, root first. */
export async function scanModules(root: ModuleImport): Promise<ModuleRecord[]> {
  const records = new Map<ModuleKey, ModuleRecord>();
  const ordered: ModuleRecord[] = [];

  const visit = async (entry: ModuleImport, parent: string): Promise<ModuleRecord> => {
    const resolved = await entry;
    const key = normalizeKey(resolved, parent);
    const known = records.get(key);
    if (known) return known;

    const metatype = typeof key === 'function' ? key : key.module;
    const metadata = getModuleMetadata(metatype) ?? {};
    const dynamic = typeof key === 'function' ? undefined : key;
    const record = new ModuleRecord(metatype, metatype.name);
    record.global = dynamic?.global ?? false;
    records.set(key, record);
    ordered.push(record);

    [...(metadata.providers ?? []), ...(dynamic?.providers ?? [])].forEach((provider, index) =>
      addProvider(record, provider, index),
    );
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

function addProvider(module: ModuleRecord, provider: Provider, index: number): void {
  const record = toProviderRecord(module, provider, index);
  module.providers.set(record.token, record);
}

function toProviderRecord(module: ModuleRecord, provider: Provider, index: number): ProviderRecord {
  if (typeof provider === 'function') {
    return { token: provider, module, recipe: { kind: 'class', useClass: provider } };
  }
  if (provider && typeof provider === 'object' && 'provide' in provider) {
    if ('useClass' in provider && typeof provider.useClass === 'function') {
      return { token: provider.provide, module, recipe: { kind: 'class', useClass: provider.useClass } };
    }
    if ('useValue' in provider) {
      return { token: provider.provide, module, recipe: { kind: 'value', useValue: provider.useValue } };
    }
    if ('useFactory' in provider && typeof provider.useFactory === 'function') {
      const recipe = { kind: 'factory' as const, useFactory: provider.useFactory, inject: provider.inject ?? [] };
      return { token: provider.provide, module, recipe };
    }
    if ('useExisting' in provider) {
      return { token: provider.provide, module, recipe: { kind: 'existing', useExisting: provider.useExisting } };
    }
  }
  throw new BootstrapError(BootstrapErrorCode.InvalidProvider, invalidProviderMessage(provider, module.name, index));
}
