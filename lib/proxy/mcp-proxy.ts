import { namespacedUri } from '../catalogue';
import type { AddedComponents, AddOptions, ComponentTransforms, JsonSchema } from '../interfaces';
import { inlineRefs } from '../schema';
import { proxyComponents } from './proxy-components';
import type { McpProxyOptions } from './proxy.options';
import { RemoteServer, type RemoteCatalogue } from './remote-server';

/** What the proxy needs of the application: its runtime component control, as `McpComponents` gives it. */
export interface ProxiedComponentControl {
  readonly tools: { add(instance: object, options?: AddOptions): AddedComponents; remove(name: string): void };
  readonly resources: { remove(name: string): void };
  readonly prompts: { remove(name: string): void };
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
    // A URI without `scheme://` cannot take the namespace: that resource is left out, not the remote.
    const resources = listed.resources.filter((r) => namespacedUri(namespace, r.uri));
    const templates = listed.templates.filter((t) => namespacedUri(namespace, t.uriTemplate));
    const left = [...listed.resources.map((r) => r.uri), ...listed.templates.map((t) => t.uriTemplate)].filter((uri) => !namespacedUri(namespace, uri));
    if (left.length > 0) this.logger.error(`The ${this.remote.label} serves ${left.map((u) => `'${u}'`).join(', ')}, which cannot take the namespace (no 'scheme://'): left out.`);
    // Clients are sent schemas without $ref (docs/composition.md#schemas-without-ref): a tool whose schema has one
    // that cannot be inlined is left out, not the remote.
    const tools = listed.tools.filter((tool) => {
      const problem = [tool.inputSchema, tool.outputSchema].map((schema) => (schema ? inlineRefs(schema as JsonSchema) : { schema: {} })).find((inlined) => 'problem' in inlined);
      if (problem && 'problem' in problem) this.logger.error(`The ${this.remote.label} lists the tool '${tool.name}', whose schema cannot be sent without references (${problem.problem}): left out.`);
      return problem === undefined;
    });
    const catalogue = { ...listed, tools, resources, templates };
    const { instance } = proxyComponents(this.remote, catalogue, `McpProxy(${namespace})`);
    const transforms = this.options.transforms && this.knownTransforms(this.options.transforms, catalogue);
    try {
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
      this.served = this.components.tools.add(instance, { namespace, ...(transforms ? { transforms } : {}) });
    } catch (error) {
      this.logger.error(`Cannot serve the components of the ${this.remote.label}: ${error instanceof Error ? error.message : String(error)}`);
    }
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
          `McpModule.proxy({ namespace: '${this.options.namespace}', transforms }) names ${missing.map((n) => `'${n}'`).join(', ')} in transforms.${kind}, which the ${this.remote.label} does not list: not applied. ` +
            `It lists: ${listed[kind].length > 0 ? listed[kind].map((n) => `'${n}'`).join(', ') : 'none'}.`,
        );
      }
      known[kind] = Object.fromEntries(names.filter((name) => listed[kind].includes(name)).map((name) => [name, given[name]]));
    }
    return known as ComponentTransforms;
  }
}
