import { ErrorCode, McpReflectError } from '../errors';
import { describeToken } from '../errors/describe';
import type { InjectionToken, McpAuth } from '../interfaces';
import { attachBus, type ChangeBus, type ServerFactory, type ServerHub, type TaskRuntime } from '../server';
import {
  httpTransport,
  serveConnection,
  serveProcessStdio,
  type ConnectionHandle,
  type HttpEndpointSpec,
  type HttpListener,
  type HttpListenOptions,
  type HttpOptions,
  type FetchHandler,
  type HttpServing,
  type FetchHandlerOptions,
  type NodeHttpHandler,
  type Transport,
} from '../transports';
import type { ServerLogger } from '../interfaces';
import { ComponentControl, McpComponents, ProviderControl } from './component-control';
import type { AddedComponents, AddOptions, McpProvider, ProvidedComponents, ProvidedSkill } from '../interfaces';
import type { McpHost } from './host';
import { inspectApplication, type InspectionSources, type McpInspection } from './inspection';

/**
 * @internal What serves the application (lib/host/compose.ts wires it): the server factory (stdio, in memory),
 * what HTTP needs of it (loaded on first use), and the task runtime that closes with it.
 */
export interface ServedParts {
  readonly factory: ServerFactory;
  readonly http: HttpServing;
  readonly tasks: TaskRuntime;
  /** What stops with the application besides (the skills folders' watchers). */
  readonly stops?: readonly (() => void)[];
}

/**
 * @internal What the factory hands the application: its own registries, server info and generated types
 * (nothing of an application lives outside it).
 */
export interface ApplicationRegistries extends InspectionSources {
  readonly hub: ServerHub;
  /** Adds the components of objects at runtime: all of them, or (on any error) none. */
  readonly register: (instances: readonly object[], options?: AddOptions) => AddedComponents;
  /** Adds the components a provider lists: all of them, or (on any error) none. */
  readonly provide: (provider: McpProvider, components: ProvidedComponents, options?: AddOptions) => AddedComponents;
  /** Warns about classes with component decorators that no module provides (once per class and process). */
  readonly warnUnprovidedComponents?: () => void;
  /** Serves a provider's skills (`ProvidedComponents.skills`) beside `forRoot({ skills })`'s. */
  readonly skills?: (provider: McpProvider, skills: readonly ProvidedSkill[] | undefined, options: AddOptions) => void;
}

export type { Transport };

/** How `app.listen()` serves the application: stdio, or Streamable HTTP. */
export type ListenOptions = StdioListenOptions | HttpListenOptions;

/** `app.listen({ transport: 'stdio' })`. */
export interface StdioListenOptions {
  transport: 'stdio';
  /**
   * The identity of the stdio client (the one process that launched this server), for `@Scopes()`, guards and
   * `ctx.auth`: stdio has no bearer tokens, so it comes from the environment (MCP spec, "Authorization").
   * Without it, components with `@Scopes()` are not served over stdio.
   */
  auth?: McpAuth;
  /**
   * While serving, anything else written to stdout (`console.log` in a tool, a chatty library) goes to stderr,
   * so it cannot corrupt the protocol stream. Default true; false leaves stdout alone.
   */
  redirectStdout?: boolean;
  /**
   * How long (ms) an answer waits after the progress sent just before it, so that a client on the official
   * TypeScript SDK, which drops progress that arrives with the answer (modelcontextprotocol/typescript-sdk#2580),
   * sees it. Default 100 (on 2025-era connections the answer waits for a ping round trip instead). 0 turns the
   * workaround off: answers go out at once, for clients that keep every notification (docs/context.md).
   */
  progressGapMs?: number;
}

/**
 * A signal `enableShutdownHooks()` can close the application on. A union of our own rather than Node's
 * `Signals` type, so the published types need no `NodeJS` namespace from `@types/node`.
 */
export type ShutdownSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'SIGQUIT' | 'SIGBREAK' | 'SIGUSR1' | 'SIGUSR2';

/** `app.connect(transport, options)`. */
export interface ConnectOptions {
  /** The identity of the client on this connection (as for stdio). */
  auth?: McpAuth;
  /** On an SDK `StdioServerTransport`: as `progressGapMs` of `listen({ transport: 'stdio' })`. */
  progressGapMs?: number;
}

/**
 * A bootstrapped MCP server: every schema, validator and list is built. Serve it with `listen()`, attach a
 * transport of your own with `connect()`, and stop it with `close()`.
 */
export class McpApplication {
  private readonly connections = new Set<ConnectionHandle>();
  private readonly http: HttpListener[] = [];
  private readonly signalListeners = new Map<ShutdownSignal, () => void>();
  /** The binds of `listen()` calls under way, which `close()` waits for. */
  private readonly starting = new Set<Promise<unknown>>();
  private closed = false;
  /** Work to run once before the application first serves (`deferUntilServed()`), and its outcome. */
  private beforeServing?: () => Promise<void>;
  private served?: Promise<void>;

  /** Runtime control of the tools: enable, disable, remove, add. */
  readonly tools: ComponentControl;
  /** Runtime control of the resources and resource templates. */
  readonly resources: ComponentControl;
  /** Runtime control of the prompts. */
  readonly prompts: ComponentControl;
  /** Serves the components of a provider (`McpProvider`): a source of components other than a decorated class. */
  readonly providers: ProviderControl;

  /** @internal Built by `McpFactory.create()` (on the standalone host) or by another host's bootstrap. */
  constructor(
    private readonly host: McpHost,
    private readonly parts: ServedParts,
    private readonly registries: ApplicationRegistries,
    private readonly logger: ServerLogger,
  ) {
    const add = (instance: object, options?: AddOptions) => registries.register([instance], options);
    this.tools = new ComponentControl([registries.tools], add);
    this.resources = new ComponentControl([registries.resources.resources, registries.resources.templates], add);
    this.prompts = new ComponentControl([registries.prompts], add);
    this.providers = new ProviderControl({
      register: registries.provide,
      remove: (added) => {
        const remove = (catalogue: { has(name: string): boolean; remove(name: string): void }, name: string) => catalogue.has(name) && catalogue.remove(name);
        for (const name of added.tools) remove(registries.tools, name);
        for (const name of added.resources) remove(registries.resources.resources, name);
        for (const name of added.templates) remove(registries.resources.templates, name);
        for (const name of added.prompts) remove(registries.prompts, name);
      },
      batch: (work) => registries.hub.batch(work),
      logger,
      ...(registries.skills ? { skills: registries.skills } : {}),
    });
    // Providers reach the same controls by injecting McpComponents (or, with several servers, McpComponents.of(name)).
    for (const token of [McpComponents, McpComponents.of(registries.server.name)]) if (host.has(token)) host.get<McpComponents>(token)?.bind(this);
  }

  /**
   * Describes what the application serves: every tool, resource, resource template, prompt and completer,
   * with its schemas (exactly as the lists show them), owning class and method, tags, scopes and task
   * settings, disabled ones included. Frozen plain data, a snapshot of now (docs/inspection.md).
   *
   * @example
   * const { tools } = app.inspect();
   * for (const tool of tools) console.log(`${tool.name} (${tool.owner.class.name}.${tool.owner.method})`, tool.inputSchema);
   */
  inspect(): McpInspection {
    return inspectApplication(this.registries);
  }

  /**
   * Sends `notifications/resources/updated` for `uri` to every session subscribed to it.
   *
   * @example
   * await app.notifyResourceUpdated('config://app');
   */
  notifyResourceUpdated(uri: string): Promise<void> {
    return this.registries.hub.resourceUpdated(uri);
  }

  /** @internal Runs `work`; the list changes it makes reach clients as one `list_changed` per kind (a proxy's refresh). */
  batch<T>(work: () => T): T {
    return this.registries.hub.batch(work);
  }

  /**
   * Serves the application. On stdio, messages arrive on stdin and go to stdout (log with `console.error`).
   * Over HTTP it resolves once the port is bound, and rejects with `LISTEN_FAILED` if it cannot be (the port in
   * use, an address not of this machine), leaving nothing bound: the application stays open (listen again, or
   * close it). A `close()` called meanwhile closes what the listen bound, and the listen rejects.
   *
   * @example
   * await app.listen({ transport: 'stdio' });
   * await app.listen({ transport: 'http', host: '127.0.0.1', port: 3000, path: '/mcp' });
   */
  async listen(options: ListenOptions): Promise<void> {
    if (this.closed) throw new McpReflectError(ErrorCode.ApplicationClosed, 'Cannot listen: the application is closed.\nFix: create a new application with McpFactory.create().');
    await this.servable();
    if (this.closed) throw closedWhileListening();
    this.registries.warnUnprovidedComponents?.(); // here, not at create(): one process serves this one application
    if (options.transport === 'stdio') {
      const connection = options.auth ? { auth: options.auth } : undefined;
      const { redirectStdout, progressGapMs } = options;
      this.track(serveProcessStdio(this.parts.factory, (error) => this.logger.warn(`stdio: ${error.message}`), { connection, redirectStdout, progressGapMs }));
      return;
    }
    if (options.transport !== 'http') {
      throw new McpReflectError(ErrorCode.UnknownTransport, `Cannot listen on the transport '${String((options as { transport: unknown }).transport)}': there is no such transport.\nFix: use { transport: 'stdio' } or { transport: 'http' }.`);
    }
    // A close() meanwhile waits for the bind, whose listener it then closes: once close() resolves, nothing is bound.
    const bound = httpTransport()
      .listenHttp(this.parts.http, options, this.logger)
      .then(async (listener) => {
        if (!this.closed) return listener;
        await listener.close();
        throw closedWhileListening();
      });
    this.starting.add(bound);
    const listener = await bound.finally(() => this.starting.delete(bound));
    this.http.push(listener);
    this.track({ close: () => listener.close() });
  }

  /** The URL of the HTTP endpoint `listen()` bound, e.g. `http://127.0.0.1:54321/mcp`. */
  async getUrl(): Promise<string> {
    const listener = this.http[0];
    if (!listener) {
      throw new McpReflectError(ErrorCode.NotListening, "Cannot give a URL: the application is not listening over HTTP.\nFix: call app.listen({ transport: 'http' }) first.");
    }
    return listener.url;
  }

  /**
   * Joins the instances of one server through a bus (`RedisBus`): list changes and resource updates made on
   * any instance reach the sessions and `subscriptions/listen` streams of every instance.
   *
   * @example
   * await app.useBus(new RedisBus(redis));
   */
  async useBus(bus: ChangeBus): Promise<void> {
    const leave = await attachBus(this.registries.hub, bus, this.logger);
    this.track({ close: leave });
  }

  /**
   * A `(req, res)` handler serving the MCP endpoint, to mount in your own node:http or Express server.
   *
   * @example
   * const handler = app.createHttpHandler({ allowedHosts: ['mcp.example.com'] });
   * express().all('/mcp', handler).listen(3000);
   */
  createHttpHandler(options: HttpOptions = {}): NodeHttpHandler {
    const handler = httpTransport().createNodeHandler(this.parts.http, options, this.logger);
    this.track({ close: () => handler.close() });
    return this.beforeServing ? after(handler, () => this.servable()) : handler;
  }

  /**
   * A web-standard handler, `(request: Request) => Promise<Response>`, serving the MCP endpoint on runtimes and
   * routers that speak `Request`/`Response`: Cloudflare Workers, Deno.serve, Bun.serve, Hono, Next.js route
   * handlers (docs/runtimes.md). The same endpoint as `listen()`: the same options, checks and bounds.
   *
   * @example
   * const handler = app.createFetchHandler({ stateless: true, path: '/mcp' });
   * Deno.serve((request, info) => handler(request, { remoteAddress: info.remoteAddr.hostname }));
   */
  createFetchHandler(options: FetchHandlerOptions = {}): FetchHandler {
    this.ensureOpen();
    const handler = httpTransport().createFetchHandler(this.parts.http, options, this.logger);
    this.track({ close: () => handler.close() });
    return this.beforeServing ? after(handler, () => this.servable()) : handler;
  }

  /** @internal One endpoint of an HTTP server shared by several servers (`McpServers.listen()`). */
  httpEndpoint(options: HttpOptions & { path?: string }): HttpEndpointSpec {
    this.ensureOpen();
    return { serving: this.parts.http, options, logger: this.logger };
  }

  /** @internal A listener serving this application (among others): closed with it; its URL is `getUrl()`'s. */
  adoptListener(listener: HttpListener): void {
    this.http.push(listener);
    this.track({ close: () => listener.close() });
  }

  /** @internal The application has several servers: the unnamed McpComponents cannot tell which one is meant. */
  refuseUnnamedComponents(message: string): void {
    if (this.host.has(McpComponents)) this.host.get<McpComponents>(McpComponents)?.refuse(message);
  }

  /**
   * @internal Runs `start` once, when the application first serves a connection or a request (`listen()`,
   * `connect()`, a handler's first request), which waits for it: a Nest application's remotes connect only once
   * the application is known to have initialised, since Nest runs no shutdown hook when a later provider's
   * bootstrap fails (docs/reliability.md).
   */
  deferUntilServed(start: () => Promise<void>): void {
    this.beforeServing = start;
  }

  /** @internal Starts a durable queue's worker held back at bootstrap (a host that `startsWorkLater`). Idempotent. */
  startWork(): void {
    if (!this.closed) this.parts.tasks.start();
  }

  private servable(): Promise<void> {
    return this.beforeServing ? (this.served ??= this.beforeServing()) : Promise.resolve();
  }

  private ensureOpen(): void {
    if (this.closed) throw new McpReflectError(ErrorCode.ApplicationClosed, 'Cannot listen: the application is closed.\nFix: create a new application with McpFactory.create().');
  }

  /** Serves one connection over a transport you provide (an SDK `Transport`), e.g. an in-memory pair. */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<ConnectionHandle> {
    await this.servable();
    const connection = options.auth ? { auth: options.auth } : undefined;
    return this.track(serveConnection(this.parts.factory, (error) => this.logger.warn(error.message), transport, { connection, progressGapMs: options.progressGapMs }));
  }

  /** A provider instance from the application's host (the standalone container, or the host application's). */
  get<T>(token: abstract new (...args: never[]) => T): T;
  get<T = unknown>(token: InjectionToken): T;
  get<T = unknown>(token: InjectionToken): T {
    if (!this.host.has(token)) {
      throw new McpReflectError(
        'PROVIDER_NOT_FOUND',
        `Cannot get ${describeToken(token)}: no module of the application provides it.\n` +
          `Fix: add it to the providers of a module in the application's module graph.`,
      );
    }
    return this.host.get<T>(token) as T;
  }

  /**
   * Closes every connection, then runs the shutdown hooks in reverse module order: `onModuleDestroy`,
   * `beforeApplicationShutdown(signal)`, `onApplicationShutdown(signal)`. Safe to call twice.
   */
  async close(signal?: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.removeSignalListeners();
    await Promise.allSettled([...this.starting]);
    const open = [...this.connections];
    this.connections.clear();
    await Promise.allSettled(open.map((c) => c.close()));
    // Running tasks are aborted (their Context's signal fires) before the providers they use are destroyed.
    await this.parts.tasks.close();
    for (const stop of this.parts.stops ?? []) stop();
    await this.host.shutdown(signal);
  }

  /**
   * Closes the application (running the shutdown hooks) when the process receives one of `signals`, then
   * lets the signal end the process as it would have.
   *
   * @example
   * const app = await McpFactory.create(AppModule);
   * app.enableShutdownHooks();
   */
  enableShutdownHooks(signals: readonly ShutdownSignal[] = ['SIGINT', 'SIGTERM']): this {
    for (const signal of signals) {
      if (this.signalListeners.has(signal)) continue;
      const listener = () => {
        void this.close(signal)
          .catch((error) => this.logger.error(`Shutdown on ${signal} failed:`, error))
          .finally(() => process.kill(process.pid, signal));
      };
      this.signalListeners.set(signal, listener);
      process.once(signal, listener);
    }
    return this;
  }

  private removeSignalListeners(): void {
    for (const [signal, listener] of this.signalListeners) process.removeListener(signal, listener);
    this.signalListeners.clear();
  }

  private track(handle: ConnectionHandle): ConnectionHandle {
    if (this.closed) {
      void handle.close();
      throw new McpReflectError(ErrorCode.ApplicationClosed, 'Cannot connect: the application is closed.\nFix: create a new application with McpFactory.create().');
    }
    const tracked: ConnectionHandle = {
      close: async () => {
        this.connections.delete(tracked);
        await handle.close();
      },
    };
    this.connections.add(tracked);
    return tracked;
  }
}

/** `app.close()` was called while `app.listen()` was starting: what it had bound is closed. */
function closedWhileListening(): McpReflectError {
  return new McpReflectError(
    ErrorCode.ApplicationClosed,
    'Cannot listen: the application was closed while it was starting to listen.\nFix: await app.listen() before closing the application, or create a new one with McpFactory.create().',
  );
}

/** `handler`, whose every call first waits for `first()` (what runs before the application first serves). */
function after<H extends (...args: never[]) => Promise<unknown>>(handler: H, first: () => Promise<void>): H {
  let ready = false; // once `first` has resolved, requests go straight to the handler
  const waiting = (...args: Parameters<H>) => (ready ? handler(...args) : first().then(() => ((ready = true), handler(...args))));
  return Object.defineProperties(waiting, Object.getOwnPropertyDescriptors(handler)) as unknown as H;
}
