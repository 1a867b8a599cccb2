import type { ModuleRecord } from './module-record';

/** The hooks a provider may implement, in the order the application calls them. */
export type LifecycleHook =
  | 'onModuleInit'
  | 'onApplicationBootstrap'
  | 'onModuleDestroy'
  | 'beforeApplicationShutdown'
  | 'onApplicationShutdown';

export interface OnModuleInit {
  onModuleInit(): unknown;
}
export interface OnApplicationBootstrap {
  onApplicationBootstrap(): unknown;
}
export interface OnModuleDestroy {
  onModuleDestroy(): unknown;
}
export interface BeforeApplicationShutdown {
  beforeApplicationShutdown(signal?: string): unknown;
}
export interface OnApplicationShutdown {
  onApplicationShutdown(signal?: string): unknown;
}

/**
 * Calls one hook on every built singleton, awaited one module at a time in dependency order: imported
 * modules before their importers when starting, the reverse when stopping. Request-scoped instances have
 * no lifecycle hooks (they live for one request).
 */
export async function callLifecycleHook(
  modules: readonly ModuleRecord[],
  hook: LifecycleHook,
  args: unknown[] = [],
): Promise<void> {
  const starting = hook === 'onModuleInit' || hook === 'onApplicationBootstrap';
  const ordered = [...modules].sort((a, b) => (starting ? a.depth - b.depth : b.depth - a.depth));
  const called = new Set<unknown>();
  for (const module of ordered) {
    for (const record of module.providers.values()) {
      const instance = record.instance as Record<string, unknown> | undefined;
      if (!record.built || record.requestScoped || !instance || typeof instance !== 'object' || called.has(instance)) continue;
      called.add(instance);
      const method = instance[hook];
      if (typeof method === 'function') await method.apply(instance, args);
    }
  }
}
