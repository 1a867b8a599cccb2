import { checkUiLinks } from '../apps';
import { COMPONENT_KINDS } from '../constants';
import type { MethodHost } from '../invocation';
import { getComponentMethods, getComponentOptions, getToolMethods, getToolOptions } from '../metadata';
import type { ComponentRecord, ExploredComponents } from '../pipeline';
import type { McpHost } from './host';
import { applyNamespaces } from './namespaces';

/** True when the class has any decorated method: a tool, resource, template, resource list, prompt or completer. */
export function hasComponents(target: Function): boolean {
  return getToolMethods(target).length > 0 || COMPONENT_KINDS.some((kind) => getComponentMethods(kind, target).length > 0);
}

/**
 * Walks the hosts once and returns every decorated method as a typed record of its kind, with the enhancers
 * its host supplies (NestJS's DiscoveryService + MetadataScanner in one pass). MCP Apps links (`@Tool({ ui })` to a
 * `@UiResource()`) are checked here, where every tool and view of the application is known.
 */
export function exploreHosts(hosts: readonly MethodHost[], supplier: Pick<McpHost, 'enhancersFor'>): ExploredComponents {
  const found: ExploredComponents = { tools: [], resources: [], templates: [], lists: [], prompts: [], completers: [] };
  for (const host of hosts) {
    const { target } = host;
    const record = <O>(method: string, options: O): ComponentRecord<O> => ({
      host,
      method,
      options,
      enhancers: supplier.enhancersFor(host, method),
    });
    for (const method of getToolMethods(target)) found.tools.push(record(method, getToolOptions(target, method) ?? {}));
    for (const method of getComponentMethods('resource', target)) found.resources.push(record(method, getComponentOptions('resource', target, method)!));
    for (const method of getComponentMethods('resource-template', target)) {
      found.templates.push(record(method, getComponentOptions('resource-template', target, method)!));
    }
    for (const method of getComponentMethods('resource-list', target)) found.lists.push(record(method, {}));
    for (const method of getComponentMethods('prompt', target)) found.prompts.push(record(method, getComponentOptions('prompt', target, method) ?? {}));
    for (const method of getComponentMethods('complete', target)) found.completers.push(record(method, getComponentOptions('complete', target, method)!));
  }
  const served = applyNamespaces(found);
  checkUiLinks(served);
  return served;
}
