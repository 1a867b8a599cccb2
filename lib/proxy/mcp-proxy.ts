import { namespacedName, namespacedUri } from '../catalogue';
import type { AddOptions } from '../interfaces';
import { proxyComponents, type ProxiedNames } from './proxy-components';
import type { McpProxyOptions } from './proxy.options';
import { RemoteServer, type RemoteCatalogue } from './remote-server';

/** What the proxy needs of the application: its runtime component control, as `McpComponents` gives it. */
export interface ProxiedComponentControl {
  readonly tools: { add(instance: object, options?: AddOptions): void; remove(name: string): void };
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
  private served?: ProxiedNames;

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
    const catalogue = { ...listed, resources: listed.resources.filter((r) => namespacedUri(namespace, r.uri)), templates: listed.templates.filter((t) => namespacedUri(namespace, t.uriTemplate)) };
    const left = [...listed.resources.map((r) => r.uri), ...listed.templates.map((t) => t.uriTemplate)].filter((uri) => !namespacedUri(namespace, uri));
    if (left.length > 0) this.logger.error(`The ${this.remote.label} serves ${left.map((u) => `'${u}'`).join(', ')}, which cannot take the namespace (no 'scheme://'): left out.`);
    const prefixed = (name: string) => namespacedName(namespace, name);
    const before = this.served;
    const { instance, names } = proxyComponents(this.remote, catalogue, `McpProxy(${namespace})`);
    try {
      if (before) {
        // What the application removed or renamed since is not there to remove.
        const remove = (control: { remove(name: string): void }, name: string) => {
          try {
            control.remove(prefixed(name));
          } catch {}
        };
        for (const name of before.tools) remove(this.components.tools, name);
        for (const name of [...before.resources, ...before.templates]) remove(this.components.resources, name);
        for (const name of before.prompts) remove(this.components.prompts, name);
      }
      this.served = undefined;
      this.components.tools.add(instance, { namespace });
      this.served = names;
    } catch (error) {
      this.logger.error(`Cannot serve the components of the ${this.remote.label}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
