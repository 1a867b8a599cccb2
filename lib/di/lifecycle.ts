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
  for (const [instance, method] of hooked(modules, hook)) await method.apply(instance, args);
}

/** How long each stopping hook may take after a failed bootstrap (docs/reliability.md). */
export const RELEASE_BOUND = 5_000;

/** The hooks that stop an application, in their order. */
export const STOPPING_HOOKS: readonly LifecycleHook[] = ['onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown'];

/**
 * After a failed bootstrap: calls every stopping hook of every built singleton (whatever the starting hooks did or
 * did not reach), each call bounded by `bound` ms and none stopping the others; the failures, each naming its class
 * and hook (a call still running after `bound` counts as one).
 */
export async function releaseBuilt(modules: readonly ModuleRecord[], signal: string, bound: number): Promise<Error[]> {
  const failures: Error[] = [];
  for (const hook of STOPPING_HOOKS) {
    for (const [instance, method] of hooked(modules, hook)) {
      const name = `${(instance as object).constructor?.name ?? 'provider'}.${hook}()`;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${name} did not finish within ${bound} ms`)), bound);
        timer.unref?.();
      });
      try {
        await Promise.race([Promise.resolve().then(() => method.apply(instance, [signal])), late]);
      } catch (error) {
        failures.push(error instanceof Error && error.message.startsWith(name) ? error : new Error(`${name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
      } finally {
        clearTimeout(timer);
      }
    }
  }
  return failures;
}

/** Every built singleton with `hook`, once each, in dependency order (imported modules first when starting). */
function hooked(modules: readonly ModuleRecord[], hook: LifecycleHook): [object, (...args: unknown[]) => unknown][] {
  const starting = hook === 'onModuleInit' || hook === 'onApplicationBootstrap';
  const ordered = [...modules].sort((a, b) => (starting ? a.depth - b.depth : b.depth - a.depth));
  const called = new Set<unknown>();
  const found: [object, (...args: unknown[]) => unknown][] = [];
  for (const module of ordered) {
    for (const record of module.providers.values()) {
      const instance = record.instance as Record<string, unknown> | undefined;
      if (!record.built || record.requestScoped || !instance || typeof instance !== 'object' || called.has(instance)) continue;
      called.add(instance);
      const method = instance[hook];
      if (typeof method === 'function') found.push([instance, method as (...args: unknown[]) => unknown]);
    }
  }
  return found;
}
