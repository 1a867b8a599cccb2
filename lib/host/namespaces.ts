import { checkTransforms, NAMESPACE_PATTERN, namespacedName, namespacedUri } from '../catalogue';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ComponentTransforms, McpFeatureOptions, ToolOptions } from '../interfaces';
import { toolUiOptions } from '../apps';
import type { ComponentRecord, ExploredComponents } from '../pipeline';

/**
 * The options of `McpModule.forFeature()`, checked where the module is declared: a namespace is letters,
 * digits, `-` and `.`, so that `<namespace>_<name>` is a valid tool name and `scheme://<namespace>/…` a valid URI;
 * transforms have their shape (what they name is checked once the components are known).
 */
export function checkFeatureOptions(options: McpFeatureOptions, where: string): McpFeatureOptions {
  const { namespace, transforms } = options ?? ({} as McpFeatureOptions);
  if (namespace === undefined && transforms === undefined) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      `Cannot use ${where}({}): it names neither a namespace nor transforms, so it would change nothing.\n` +
        `Fix: give a namespace, e.g. ${where}({ namespace: 'weather' }), transforms (docs/composition.md#transforms), or remove the import.`,
    );
  }
  checkTransforms(transforms, where);
  if (namespace === undefined || (typeof namespace === 'string' && NAMESPACE_PATTERN.test(namespace))) return { ...options };
  throw new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot use ${where}({ namespace: ${JSON.stringify(namespace) ?? String(namespace)} }): a namespace is 1 to 64 letters, digits, '-' or '.', starting with a letter or a digit ` +
      `(it prefixes tool and prompt names as '<namespace>_<name>' and resource URIs as 'scheme://<namespace>/…').\n` +
      `Fix: give a short name, e.g. ${where}({ namespace: 'weather' }).`,
  );
}

/**
 * The namespace and transforms of a module from the `McpModule.forFeature()` imports a host found in it (each
 * host reads its own module graph): none, or one import; more fail the bootstrap naming the module.
 */
export function moduleFeature(moduleName: string, features: readonly McpFeatureOptions[]): { namespace?: string; transforms?: ComponentTransforms } {
  if (features.length <= 1) {
    const { namespace, transforms } = features[0] ?? {};
    return { ...(namespace !== undefined ? { namespace } : {}), ...(transforms !== undefined ? { transforms } : {}) };
  }
  throw new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot serve the components of ${moduleName}: it imports McpModule.forFeature() ${features.length} times (namespaces ${features.map((f) => (f.namespace === undefined ? 'none' : `'${f.namespace}'`)).join(' and ')}), and a module's components have one namespace and one set of transforms.\n` +
      `Fix: keep one McpModule.forFeature() in ${moduleName}'s imports (with both its namespace and its transforms), or move the other components into a module of their own.`,
  );
}

/**
 * Renames the components of namespaced hosts where clients see them: tool, prompt, resource and template names
 * get `<namespace>_`, resource URIs and URI templates `scheme://<namespace>/`, and what refers to them inside
 * the module follows (a `@Complete()` target, a tool's `ui` view). A clash between two namespaces (or a
 * namespace and the root) fails here naming both.
 */
export function applyNamespaces(found: ExploredComponents): ExploredComponents {
  if (![found.tools, found.resources, found.templates, found.lists, found.prompts, found.completers].some((records) => records.some((r) => r.host.namespace))) return found;
  const renamed: ExploredComponents = {
    tools: found.tools.map((r) => rename(r, (ns, o) => ({ ...o, name: namespacedName(ns, o.name ?? r.method), ...(o.ui !== undefined ? { ui: namespacedUi(ns, o.ui, r) } : {}) }))),
    resources: found.resources.map((r) => rename(r, (ns, o) => ({ ...o, name: namespacedName(ns, o.name ?? r.method), uri: uriIn(ns, o.uri, r, 'resource URI') }))),
    templates: found.templates.map((r) =>
      rename(r, (ns, o) => ({ ...o, name: namespacedName(ns, o.name ?? r.method), uriTemplate: uriIn(ns, o.uriTemplate, r, 'resource template') })),
    ),
    lists: found.lists,
    prompts: found.prompts.map((r) => rename(r, (ns, o) => ({ ...o, name: namespacedName(ns, o.name ?? r.method) }))),
    completers: found.completers.map((r) =>
      rename(r, (ns, o) =>
        'prompt' in o ? { ...o, prompt: namespacedName(ns, o.prompt) } : { ...o, resourceTemplate: uriIn(ns, o.resourceTemplate, r, 'resource template') },
      ),
    ),
  };
  checkClashes(renamed.tools, 'tool', (r) => r.options.name ?? r.method);
  checkClashes(renamed.prompts, 'prompt', (r) => r.options.name ?? r.method);
  checkClashes(renamed.resources, 'resource URI', (r) => r.options.uri);
  checkClashes(renamed.templates, 'resource template', (r) => r.options.uriTemplate);
  return renamed;
}

function rename<O>(record: ComponentRecord<O>, change: (namespace: string, options: O) => O): ComponentRecord<O> {
  const { namespace } = record.host;
  return namespace ? { ...record, options: change(namespace, record.options) } : record;
}

function uriIn(namespace: string, uri: string, record: ComponentRecord<unknown>, what: string): string {
  const named = namespacedUri(namespace, uri);
  if (named !== undefined) return named;
  throw new BootstrapError(
    BootstrapErrorCode.InvalidResourceUri,
    `Cannot serve the ${what} '${uri}' of ${where(record)} in namespace '${namespace}': a namespace goes after the scheme ('scheme://${namespace}/…'), and '${uri}' has no 'scheme://' part.\n` +
      `Fix: give it a URI of the form 'scheme://path' (e.g. 'docs://${uri.replace(/^[^:]*:/, '')}'), or provide ${record.host.target.name} in a module without a namespace.`,
  );
}

/** A tool's view inside a namespaced module is that module's view: its URI takes the namespace too. */
function namespacedUi(namespace: string, ui: NonNullable<ToolOptions['ui']>, record: ComponentRecord<unknown>): NonNullable<ToolOptions['ui']> {
  const { resourceUri } = toolUiOptions(ui);
  if (typeof resourceUri !== 'string') return ui; // checkUiLinks explains it
  const uri = uriIn(namespace, resourceUri, record, 'view');
  return typeof ui === 'string' ? uri : { ...ui, resourceUri: uri };
}

function checkClashes<O>(records: readonly ComponentRecord<O>[], what: string, key: (record: ComponentRecord<O>) => string): void {
  const seen = new Map<string, ComponentRecord<O>>();
  for (const record of records) {
    const value = key(record);
    const first = seen.get(value);
    if (first && (first.host.namespace || record.host.namespace)) {
      throw new BootstrapError(
        what === 'tool' ? BootstrapErrorCode.DuplicateToolName : what === 'prompt' ? BootstrapErrorCode.DuplicatePrompt : BootstrapErrorCode.DuplicateResource,
        `Two components are served as the ${what} '${value}': ${where(first)} and ${where(record)}.\n` +
          `Fix: rename one of them (its decorator's name, or its URI), or give the modules namespaces under which the two names differ.`,
      );
    }
    seen.set(value, record);
  }
}

function where(record: ComponentRecord<unknown>): string {
  const { host, method } = record;
  return `${host.target.name}.${method} (${host.namespace ? `namespace '${host.namespace}'` : 'no namespace'})`;
}
