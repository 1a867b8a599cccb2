import { ErrorCode, McpReflectError } from '../errors';
import { httpTransport, type HttpListenOptions, type HttpOptions } from '../transports';
import type { McpApplication, ShutdownSignal } from './mcp-application';

/** One endpoint of `servers.listen()`: where a server is served, and its own HTTP options (its auth, its limits). */
export type ServerEndpoint = HttpOptions & {
  /** The endpoint path, e.g. '/admin'. */
  path: string;
};

/** `servers.listen()`: one HTTP server, and the endpoint of each server on it. */
export interface ServersListenOptions extends Pick<HttpListenOptions, 'host' | 'port' | 'requestTimeoutMs' | 'headersTimeoutMs'> {
  transport: 'http';
  /** Each server to serve, by name, with its path and HTTP options; a server left out is not served here. */
  endpoints: Readonly<Record<string, ServerEndpoint>>;
}

/**
 * The servers of one application (`McpFactory.createServers()`): one container, so their providers are shared;
 * each server with its own options, components, guards, sessions and auth. Serve each on its own (`get(name)`
 * is an `McpApplication`: stdio, HTTP, a handler of your own) or several on one HTTP server (`listen()`).
 *
 * @example
 * const servers = await McpFactory.createServers(AppModule);
 * await servers.listen({ transport: 'http', port: 3000, endpoints: { public: { path: '/public' }, admin: { path: '/admin', auth } } });
 */
export class McpServers {
  private readonly byName: ReadonlyMap<string, McpApplication>;

  /** @internal Built by `McpFactory.createServers()`. */
  constructor(servers: readonly (readonly [string, McpApplication])[]) {
    this.byName = new Map(servers);
  }

  /** The names of the servers, as `McpModule.forRoot({ name })` gave them. */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  /** The server named `name`. */
  get(name: string): McpApplication {
    const server = this.byName.get(name);
    if (server) return server;
    throw new McpReflectError(ErrorCode.UnknownComponent, `There is no MCP server named '${name}'. The servers are ${this.names.map((n) => `'${n}'`).join(', ')}.\nFix: use one of those names.`);
  }

  [Symbol.iterator](): IterableIterator<McpApplication> {
    return this.byName.values();
  }

  /**
   * Serves several servers on one HTTP server, each at its path with its own options (auth, limits); resolves
   * once the port is bound. Each server's `getUrl()` then gives its endpoint's URL.
   */
  async listen(options: ServersListenOptions): Promise<void> {
    const entries = Object.entries(options.endpoints ?? {});
    if (entries.length === 0) {
      throw new McpReflectError(ErrorCode.UnknownTransport, `Cannot listen: no endpoint is given.\nFix: name the servers to serve, e.g. endpoints: { ${this.names.map((n) => `${n}: { path: '/${n}' }`).join(', ')} }.`);
    }
    const servers = entries.map(([name]) => this.get(name));
    const listener = await httpTransport().listenHttpEndpoints(
      entries.map(([, endpoint], i) => servers[i].httpEndpoint(endpoint)),
      options,
    );
    // One listener for all: it closes once every server serving on it has closed.
    let open = servers.length;
    servers.forEach((server, i) =>
      server.adoptListener({
        url: listener.urls[i],
        close: async () => {
          if (--open === 0) await listener.close();
        },
      }),
    );
  }

  /** Closes every server (the shared providers' shutdown hooks run once the last has closed). */
  async close(signal?: string): Promise<void> {
    await Promise.all([...this.byName.values()].map((server) => server.close(signal)));
  }

  /** Closes every server when the process receives one of `signals` (see `McpApplication.enableShutdownHooks`). */
  enableShutdownHooks(signals?: readonly ShutdownSignal[]): this {
    for (const server of this.byName.values()) server.enableShutdownHooks(signals);
    return this;
  }
}
