import { Scope } from '../constants';
import type { Context } from '../context';
import { RequestScope, type Container } from '../di';
import { COMPONENT_KINDS } from '../constants';
import { getComponentMethods, getToolMethods } from '../metadata';
import type { MethodHost } from '../invocation';

/** True when the class has any decorated method: a tool, resource, template, resource list, prompt or completer. */
export function hasComponents(target: Function): boolean {
  return getToolMethods(target).length > 0 || COMPONENT_KINDS.some((kind) => getComponentMethods(kind, target).length > 0);
}

/**
 * The providers whose class has decorated methods, as method hosts: singletons serve every call with one
 * instance; request-scoped classes get a fresh scope per call, seeded with that call's Context.
 */
export async function collectHosts(container: Container): Promise<MethodHost[]> {
  const hosts: MethodHost[] = [];
  const seen = new Set<Function>();
  for (const record of container.providers()) {
    const target =
      record.recipe.kind === 'class'
        ? record.recipe.useClass
        : record.built && typeof record.instance === 'object' && record.instance !== null
          ? record.instance.constructor
          : undefined;
    if (!target || seen.has(target) || !hasComponents(target)) continue;
    seen.add(target);

    if (record.requestScoped) {
      hosts.push({
        target,
        scoped: (context: Context) => {
          const scope = new RequestScope({ context });
          const instance = container.runInRequest(scope, () => container.resolveInRequest(record, scope)) as
            | object
            | Promise<object>;
          return { instance, run: (fn) => container.runInRequest(scope, fn) };
        },
      });
    } else {
      const instance = record.scope === Scope.TRANSIENT ? await container.instantiateTransient(record) : record.instance;
      hosts.push({ target, instance: instance as object });
    }
  }
  return hosts;
}
