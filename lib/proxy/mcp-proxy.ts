import { namespacedUri } from '../catalogue';
import type { AddedComponents, AddOptions, ComponentTransforms, JsonSchema } from '../interfaces';
import { inlineRefs } from '../schema';
import { proxyComponents } from './proxy-components';
import type { McpProxyOptions } from './proxy.options';
import { namesOf, printable } from './remote-catalogue';
import { RemoteServer, type RemoteCatalogue } from './remote-server';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** What the proxy needs of the application: its runtime component control, as `McpComponents` gives it. */
export interface ProxiedComponentControl {
  readonly tools: { add(instance: object, options?: AddOptions): AddedComponents; remove(name: string): void };
  readonly resources: { remove(name: string): void };
  readonly prompts: { remove(name: string): void };
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Runs `work` as one change: its removals and additions reach clients as one `list_changed` per kind. */
  batch?<T>(work: () => T): T;
}

interface Logger {
  error(message: string): void;
}

/**
 * A remote MCP server served as a provider of this application (`McpModule.proxy()`): once the application
 * is built it connects (bounded), and serves the remote's tools, resources, templates and prompts under the
 * proxy's namespace as components of the application's own pipeline; on the remote's `list_changed` (or a
 * reconnection) the served set is replaced, and connected clients hear of it. Closed with the application.
 */
export class McpProxy {
  private readonly remote: RemoteServer;
  /** The served names of what the proxy last added: exactly what a new catalogue replaces. */
  private served?: AddedComponents;

  constructor(
    private readonly options: McpProxyOptions,
    private readonly components: ProxiedComponentControl,
    private readonly logger: Logger,
  ) {
    this.remote = new RemoteServer(options, logger, {
      catalogue: (catalogue) => this.serve(catalogue),
      updated: (uri) => void this.components.notifyResourceUpdated(namespacedUri(options.namespace, uri) ?? uri).catch(() => undefined),
    });
  }

  /** The application is built: connect, and serve what the remote lists (a remote that is down is retried in the background). */
  async onApplicationBootstrap(): Promise<void> {
    await this.remote.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.remote.close();
  }

  private serve(listed: RemoteCatalogue): void {
    const { namespace } = this.options;
    const label = this.remote.label;
    // A URI without `scheme://` cannot take the namespace: that resource is left out, not the remote.
    const resources = listed.resources.filter((r) => namespacedUri(namespace, r.uri));
    const templates = listed.templates.filter((t) => namespacedUri(namespace, t.uriTemplate));
    const left = [...listed.resources.map((r) => r.uri), ...listed.templates.map((t) => t.uriTemplate)].filter((uri) => !namespacedUri(namespace, uri));
    if (left.length > 0) this.logger.error(`The ${label} serves ${namesOf(left)}, which cannot take the namespace (no 'scheme://'): left out.`);
    // Clients are sent schemas without $ref (docs/composition.md#schemas-without-ref): a tool whose schema has one
    // that cannot be inlined is left out, not the remote.
    const tools = listed.tools.filter((tool) => {
      const problem = [tool.inputSchema, tool.outputSchema].map((schema) => (schema ? inlineRefs(schema as JsonSchema) : { schema: {} })).find((inlined) => 'problem' in inlined);
      if (problem && 'problem' in problem) this.logger.error(`The ${label} lists the tool '${printable(tool.name, 100)}', whose schema cannot be sent without references (${printable(problem.problem, 500)}): left out.`);
      return problem === undefined;
    });
    const catalogue = {
      ...listed,
      tools: this.wellNamed('tool', tools, (t) => t.name),
      resources: this.wellNamed('resource', resources, (r) => r.uri),
      templates: this.wellNamed('resource template', templates, (t) => t.uriTemplate),
      prompts: this.wellNamed('prompt', listed.prompts, (p) => p.name),
    };
    const transforms = this.options.transforms && this.knownTransforms(this.options.transforms, catalogue);
    const add = (part: RemoteCatalogue) => {
      const { instance } = proxyComponents(this.remote, part, `McpProxy(${namespace})`);
      return this.components.tools.add(instance, { namespace, ...(transforms ? { transforms: only(transforms, part) } : {}) });
    };
    // One change for clients: the old components go and the new come in one list_changed per kind.
    const batch = <T>(work: () => T): T => (this.components.batch ? this.components.batch(work) : work());
    batch(() => {
      if (this.served) {
        // What the application removed since is not there to remove.
        const remove = (control: { remove(name: string): void }, name: string) => {
          try {
            control.remove(name);
          } catch {}
        };
        for (const name of this.served.tools) remove(this.components.tools, name);
        for (const name of [...this.served.resources, ...this.served.templates]) remove(this.components.resources, name);
        for (const name of this.served.prompts) remove(this.components.prompts, name);
      }
      this.served = undefined;
      try {
        this.served = add(catalogue);
      } catch {
        // One component the application refuses (a name it cannot serve, or one it already serves) is left out,
        // not the remote: each is added on its own, and the ones refused are named.
        this.served = this.oneByOne(catalogue, add);
      }
    });
  }

  /** Adds each component of `catalogue` on its own (with its completers); logs the ones refused. */
  private oneByOne(catalogue: RemoteCatalogue, add: (part: RemoteCatalogue) => AddedComponents): AddedComponents {
    const none = { tools: [], resources: [], templates: [], prompts: [], completions: catalogue.completions };
    const parts: [string, string, RemoteCatalogue][] = [
      ...catalogue.tools.map((t): [string, string, RemoteCatalogue] => ['tool', t.name, { ...none, tools: [t] }]),
      ...catalogue.resources.map((r): [string, string, RemoteCatalogue] => ['resource', r.uri, { ...none, resources: [r] }]),
      ...catalogue.templates.map((t): [string, string, RemoteCatalogue] => ['resource template', t.uriTemplate, { ...none, templates: [t] }]),
      ...catalogue.prompts.map((p): [string, string, RemoteCatalogue] => ['prompt', p.name, { ...none, prompts: [p] }]),
    ];
    const served = { tools: [] as string[], resources: [] as string[], templates: [] as string[], prompts: [] as string[] };
    for (const [what, name, part] of parts) {
      try {
        const added = add(part);
        for (const kind of ['tools', 'resources', 'templates', 'prompts'] as const) served[kind].push(...added[kind]);
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
        this.logger.error(`The ${this.remote.label} lists the ${what} '${printable(name, 100)}', which cannot be served: ${printable(reason, 500)} It is left out; the rest of the remote is served.`);
      }
    }
    return served;
  }

  /**
   * The components whose names can be served: a name with a control character (a NUL, an escape) is left out
   * before it reaches anything, and so is a name listed twice (the first is served); each logged, escaped.
   */
  private wellNamed<T>(what: string, items: readonly T[], nameOf: (item: T) => unknown): T[] {
    const seen = new Set<string>();
    const bad: string[] = [];
    const twice: string[] = [];
    const kept = items.filter((item) => {
      const name = nameOf(item);
      if (typeof name !== 'string' || CONTROL.test(name)) return void bad.push(String(name)), false;
      if (seen.has(name)) return void twice.push(name), false;
      seen.add(name);
      return true;
    });
    if (bad.length > 0) this.logger.error(`The ${this.remote.label} lists the ${what}s ${namesOf(bad)}, whose names hold control characters: left out.`);
    if (twice.length > 0) this.logger.error(`The ${this.remote.label} lists the ${what}s ${namesOf(twice)} more than once: the first is served, the others left out.`);
    return kept;
  }

  /**
   * The transforms of the names the remote lists now: a remote changes what it serves, so a name it no longer
   * lists is reported and skipped (the rest of its components are served), where a local name would fail the bootstrap.
   */
  private knownTransforms(transforms: ComponentTransforms, catalogue: RemoteCatalogue): ComponentTransforms {
    const listed = {
      tools: catalogue.tools.map((t) => t.name),
      prompts: catalogue.prompts.map((p) => p.name),
      resources: [...catalogue.resources.map((r) => r.name), ...catalogue.templates.map((t) => t.name)],
    };
    const known: Record<string, Record<string, unknown>> = {};
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      const given = transforms[kind];
      if (!given) continue;
      const names = Object.keys(given);
      const missing = names.filter((name) => !listed[kind].includes(name));
      if (missing.length > 0) {
        this.logger.error(
          `McpModule.proxy({ namespace: '${this.options.namespace}', transforms }) names ${namesOf(missing)} in transforms.${kind}, which the ${this.remote.label} does not list: not applied. ` +
            `It lists: ${listed[kind].length > 0 ? namesOf(listed[kind]) : 'none'}.`,
        );
      }
      known[kind] = Object.fromEntries(names.filter((name) => listed[kind].includes(name)).map((name) => [name, given[name]]));
    }
    return known as ComponentTransforms;
  }
}

/** The transforms of the components of `part` only (a component added on its own names no other). */
function only(transforms: ComponentTransforms, part: RemoteCatalogue): ComponentTransforms {
  const names = { tools: part.tools.map((t) => t.name), prompts: part.prompts.map((p) => p.name), resources: [...part.resources.map((r) => r.name), ...part.templates.map((t) => t.name)] };
  const picked: Record<string, Record<string, unknown>> = {};
  for (const kind of ['tools', 'prompts', 'resources'] as const) {
    const given = transforms[kind] as Record<string, unknown> | undefined;
    if (given) picked[kind] = Object.fromEntries(Object.entries(given).filter(([name]) => names[kind].includes(name)));
  }
  return picked as ComponentTransforms;
}
