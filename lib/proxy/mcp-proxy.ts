import { namespacedName } from '../catalogue';
import type { AddOptions } from '../interfaces';
import { proxyComponents, type ProxiedNames } from './proxy-components';
import type { McpProxyOptions } from './proxy.options';
import { RemoteServer, type RemoteCatalogue } from './remote-server';

/** What the proxy needs of the application: its runtime component control, as `McpComponents` gives it. */
export interface ProxiedComponentControl {
  readonly tools: { add(instance: object, options?: AddOptions): void; remove(name: string): void };
  readonly resources: { remove(name: string): void };
  readonly prompts: { remove(name: string): void };
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
    this.remote = new RemoteServer(options, logger, (catalogue) => this.serve(catalogue));
  }

  /** The application is built: connect, and serve what the remote lists (a remote that is down is retried in the background). */
  async onApplicationBootstrap(): Promise<void> {
    await this.remote.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.remote.close();
  }

  private serve(catalogue: RemoteCatalogue): void {
    const { namespace } = this.options;
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
