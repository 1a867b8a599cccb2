import { Scope } from '../constants';
import type { Context } from '../context';
import { RequestScope, type Container } from '../di';
import { getToolMethods } from '../metadata';
import type { ToolHost } from '../tools';

/**
 * The providers whose class has `@Tool()` methods, as tool hosts: singletons serve every call with one
 * instance; request-scoped classes get a fresh scope per call, seeded with that call's Context.
 */
export async function collectToolHosts(container: Container): Promise<ToolHost[]> {
  const hosts: ToolHost[] = [];
  for (const record of container.providers()) {
    const target =
      record.recipe.kind === 'class'
        ? record.recipe.useClass
        : record.built && typeof record.instance === 'object' && record.instance !== null
          ? record.instance.constructor
          : undefined;
    if (!target || getToolMethods(target).length === 0) continue;

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
