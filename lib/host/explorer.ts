import { checkUiLinks } from '../apps';
import { COMPONENT_KINDS } from '../constants';
import type { ComponentTransforms } from '../interfaces';
import type { MethodHost } from '../invocation';
import { getComponentMethods, getComponentOptions, getToolMethods, getToolOptions } from '../metadata';
import type { ComponentRecord, ExploredComponents } from '../pipeline';
import type { McpHost } from './host';
import { applyNamespaces } from './namespaces';
import { applyHostTransforms, applyRootTransforms } from './transforms';

/** How explored components get their served names (docs/composition.md#transforms). */
export interface Naming {
  /** The transforms of a host's own module, by declared names (default: the host's, from `McpModule.forFeature()`). */
  readonly transformsOf?: (host: MethodHost) => ComponentTransforms | undefined;
  /** How errors name where those transforms were given. */
  readonly where?: string;
  /** `McpModule.forRoot({ transforms })`, by served names. */
  readonly root?: ComponentTransforms;
  /** At bootstrap: every root transform must name a component. */
  readonly strictRoot?: boolean;
}

/** True when the class has any decorated method: a tool, resource, template, resource list, prompt or completer. */
export function hasComponents(target: Function): boolean {
  return getToolMethods(target).length > 0 || COMPONENT_KINDS.some((kind) => getComponentMethods(kind, target).length > 0);
}

/**
 * Walks the hosts once and returns every decorated method as a typed record of its kind, with the enhancers
 * its host supplies (NestJS's DiscoveryService + MetadataScanner in one pass), named as clients see them
 * (transforms and namespaces, `naming`). MCP Apps links (`@Tool({ ui })` to a
 * `@UiResource()`) are checked here, where every tool and view of the application is known.
 */
export function exploreHosts(hosts: readonly MethodHost[], supplier: Pick<McpHost, 'enhancersFor'>, naming: Naming = {}): ExploredComponents {
  const found: ExploredComponents = { tools: [], resources: [], templates: [], lists: [], prompts: [], completers: [] };
  for (const host of hosts) {
    const { target } = host;
    const record = <O>(method: string, options: O): ComponentRecord<O> => ({
      host,
      method,
      options,
      enhancers: supplier.enhancersFor(host, method),
    });
    if (host.provided) {
      // A provider's components are data: filed by kind as the decorated methods below are.
      for (const { kind, key, options } of host.provided.methods) {
        const filed = { tool: found.tools, resource: found.resources, 'resource-template': found.templates, prompt: found.prompts, complete: found.completers }[kind];
        (filed as ComponentRecord<object>[]).push(record(key, options));
      }
      continue;
    }
    for (const method of getToolMethods(target)) found.tools.push(record(method, getToolOptions(target, method) ?? {}));
    for (const method of getComponentMethods('resource', target)) found.resources.push(record(method, getComponentOptions('resource', target, method)!));
    for (const method of getComponentMethods('resource-template', target)) {
      found.templates.push(record(method, getComponentOptions('resource-template', target, method)!));
    }
    for (const method of getComponentMethods('resource-list', target)) found.lists.push(record(method, {}));
    for (const method of getComponentMethods('prompt', target)) found.prompts.push(record(method, getComponentOptions('prompt', target, method) ?? {}));
    for (const method of getComponentMethods('complete', target)) found.completers.push(record(method, getComponentOptions('complete', target, method)!));
  }
  // The module's own transforms (declared names), then its namespace, then the application's (served names).
  const own = applyHostTransforms(found, naming.transformsOf ?? ((h) => h.transforms), naming.where ?? 'McpModule.forFeature({ transforms })');
  const served = applyRootTransforms(applyNamespaces(own), naming.root, naming.strictRoot ?? false);
  checkUiLinks(served);
  return served;
}
