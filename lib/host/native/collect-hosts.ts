import { MCP_FEATURE, Scope } from '../../constants';
import type { Container, ModuleRecord, ProviderRecord } from '../../di';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import { describeValue } from '../../errors/describe';
import type { MethodHost, RequestHandle } from '../../invocation';
import type { McpFeatureOptions } from '../../interfaces';
import type { GeneratedTypes } from '../../metadata';
import { perRequest } from './enhancer-resolver';
import { hasComponents } from '../explorer';
import { refuseNestDecoratorsStandalone } from '../foreign-decorators';
import { moduleFeature } from '../namespaces';

/** A component host and the module whose providers its enhancers may inject. */
export interface HostRecord extends MethodHost {
  readonly module: ModuleRecord;
}

/**
 * The providers whose class has decorated methods, as hosts: singletons and transients serve every call with
 * one instance; request-scoped ones (classes, or factories provided under their class) build theirs per
 * request. A provider whose components cannot be served fails the bootstrap. Each host carries the
 * application's generated types (`types`), which its methods are compiled with.
 */
export async function collectHosts(container: Container, types: GeneratedTypes, served?: ReadonlySet<ModuleRecord>): Promise<HostRecord[]> {
  const hosts: HostRecord[] = [];
  const seen = new Set<Function>();
  const features = new Map<ModuleRecord, ReturnType<typeof moduleFeature>>();
  const featureOf = (module: ModuleRecord) => {
    if (!features.has(module)) features.set(module, featureOptions(module));
    return features.get(module)!;
  };
  for (const record of container.providers()) {
    if (record.recipe.kind === 'existing' || record.recipe.kind === 'request-value') continue; // an alias serves nothing of its own
    if (served && !served.has(record.module)) continue; // another server's module
    const target = targetOf(record);
    if (!target || seen.has(target) || !hasComponents(target)) continue;
    seen.add(target);
    refuseNestDecoratorsStandalone(target, record.module.name);
    const named = featureOf(record.module);
    if (record.requestScoped) {
      hosts.push({
        target,
        module: record.module,
        resolve: perRequest(container, record) as (request: RequestHandle) => object | Promise<object>,
        types,
        ...named,
      });
      continue;
    }
    const instance = record.scope === Scope.TRANSIENT ? await container.instantiateTransient(record) : record.instance;
    if (typeof instance !== 'object' || instance === null || !(instance instanceof target)) {
      throw new BootstrapError(
        BootstrapErrorCode.InvalidProvider,
        `Cannot serve the components of ${target.name} (provider in ${record.module.name}): its provider gave ${describeValue(instance)}, not an instance of ${target.name}.\n` +
          `Fix: make the factory return an instance of ${target.name}, or provide the class itself (useClass).`,
      );
    }
    hosts.push({ target, module: record.module, instance, types, ...named });
  }
  return hosts;
}

/** The class whose decorated methods a provider serves. */
function targetOf(record: ProviderRecord): Function | undefined {
  if (record.recipe.kind === 'class') return record.recipe.useClass;
  // A factory or value provided under a class token serves that class (request-scoped factories too).
  if (typeof record.token === 'function' && hasComponents(record.token)) return record.token;
  if (record.requestScoped || record.scope === Scope.TRANSIENT) return undefined; // not built: nothing to inspect
  const instance = record.instance;
  return typeof instance === 'object' && instance !== null ? instance.constructor : undefined;
}

/** The namespace and transforms a module's `McpModule.forFeature()` import gives its components. */
function featureOptions(module: ModuleRecord): ReturnType<typeof moduleFeature> {
  const features: McpFeatureOptions[] = [];
  for (const child of module.imports) {
    const recipe = child.providers.get(MCP_FEATURE)?.recipe;
    if (recipe?.kind === 'value') features.push(recipe.useValue as McpFeatureOptions);
  }
  return moduleFeature(module.name, features);
}
