import { namespacedUri, namesOf, printable } from '../catalogue';
import type { AddOptions, JsonSchema, McpProvider, ProvidedComponents } from '../interfaces';
import { inlineRefs } from '../schema';
import { proxyComponents } from './proxy-components';
import type { McpProxyOptions } from './proxy.options';
import { RemoteServer, type RemoteCatalogue } from './remote-server';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** What the proxy needs of the application: its providers and resource updates, as `McpComponents` gives them. */
export interface ProxiedComponentControl {
  readonly providers: {
    set(provider: McpProvider): {
      replace(components: ProvidedComponents, options: AddOptions & { where?: string }): unknown;
      clear(): void;
    };
  };
  notifyResourceUpdated(uri: string): Promise<void>;
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
export class McpProxy implements McpProvider {
  private readonly remote: RemoteServer;
  /** What the remote lists now, as served (names checked, URIs namespaced, schemas without references). */
  private current: ProvidedComponents = {};
  private served?: ReturnType<ProxiedComponentControl['providers']['set']>;
  readonly runtimeSchemas = true;

  constructor(
    private readonly options: McpProxyOptions,
    private readonly control: ProxiedComponentControl,
    private readonly logger: Logger,
  ) {
    this.remote = new RemoteServer(options, logger, {
      catalogue: (catalogue) => this.serve(catalogue),
      updated: (uri) => void this.control.notifyResourceUpdated(namespacedUri(options.namespace, uri) ?? uri).catch(() => undefined),
    });
  }

  /** Names the remote in messages: `the remote MCP server 'docs' (https://…)`. */
  get source(): string {
    return this.remote.label;
  }

  components(): ProvidedComponents {
    return this.current;
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
    this.current = proxyComponents(this.remote, catalogue);
    // One change for clients: the old components go and the new come in one list_changed per kind; a component
    // the application refuses (a name it cannot serve, or one it already serves) is left out, not the remote.
    this.served ??= this.control.providers.set(this);
    const { transforms } = this.options;
    this.served.replace(this.current, { namespace, ...(transforms ? { transforms, where: `McpModule.proxy({ namespace: '${namespace}', transforms })` } : {}) });
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
}
