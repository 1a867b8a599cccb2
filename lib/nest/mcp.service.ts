import { Inject, Injectable, Optional, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, HttpAdapterHost, ModuleRef, ModulesContainer } from '@nestjs/core';
import { BootstrapError, BootstrapErrorCode, ErrorCode, McpReflectError } from '../errors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpProxy, McpProxyOptions } from '../proxy';
import type { McpOpenApi, OpenApiSettings } from '../openapi';
import { authGate, openApis, proxies } from '../host/optional-parts';
import { composeApplication, stderrLogger, type ConnectOptions, type ListenOptions, type McpApplication } from '../host';
import { completeAuth } from '../context';
import { authInfoOf } from '../server';
import type { ConnectionHandle, HttpOptions, NodeHttpHandler, Transport } from '../transports';
import { MCP_NEST_CLI_BUILD, type NestCliBuild } from './cli-build';
import { MCP_NEST_OPTIONS, type McpNestHttpOptions, type McpNestOptions } from './mcp-nest.options';
import { applicationConfig } from './nest-enhancers';
import { NestHost } from './nest-host';
import { checkNestServers, servedNestModules } from './nest-servers';
import { mountAhead } from './server-mount';
import { deferRouteBodies, routePaths, takeDeferred } from './route-body';
import { serverCardPaths } from '../transports/http/server-card';

/**
 * The MCP server of a Nest application: built from the application's providers once Nest has initialised
 * them (`onApplicationBootstrap`), closed when Nest shuts down. Serve it on stdio from an application context
 * with `listen({ transport: 'stdio' })`; over HTTP it is served by the application's own server (see
 * `McpModule.forRoot({ http })`).
 *
 * @example
 * const context = await NestFactory.createApplicationContext(AppModule);
 * await context.get(McpService).listen({ transport: 'stdio' });
 */
/** A remote server `McpModule.proxy()` names: McpService finds it among the providers and connects it once the application is first served (or listens). */
export class McpProxyProvider {
  constructor(readonly options: McpProxyOptions) {}
}

/** An API `McpModule.fromOpenApi()` names: McpService finds it among the providers and serves it once it has built the MCP server. */
export class McpOpenApiProvider {
  constructor(readonly options: OpenApiSettings) {}
}

@Injectable()
export class McpService implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private built?: McpApplication;
  private http?: NodeHttpHandler;
  private proxies: McpProxy[] = [];
  private apis: McpOpenApi[] = [];
  /** Nest is shutting the application down (a close() may come while it still initialises). */
  private stopped = false;
  /** What starts once the application is known to have initialised (`work()`): the queue's worker, the remotes' connection. */
  private working?: Promise<void>;
  private listening?: { unsubscribe(): void };

  /** @internal Built by Nest's container (McpModule.forRoot()); an application gets it with `app.get(McpService)`. */
  constructor(
    @Inject(MCP_NEST_OPTIONS) private readonly options: McpNestOptions,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
    @Inject(ExternalContextCreator) private readonly externalContextCreator: ExternalContextCreator,
    @Inject(ModulesContainer) private readonly modules: ModulesContainer,
    @Optional() @Inject(HttpAdapterHost) private readonly adapterHost?: HttpAdapterHost,
    // Only when the mcp-reflect CLI boots the application (lib/nest/cli-application.ts).
    @Optional() @Inject(MCP_NEST_CLI_BUILD) private readonly cliBuild?: NestCliBuild,
  ) {}

  /**
   * The token of one server's McpService, in an application with several (`McpModule.forRoot({ name, modules })`
   * more than once): `app.get(McpService.of('admin'))`.
   */
  static of(server: string): symbol {
    return Symbol.for(`mcp-reflect:nest-service:${server}`);
  }

  /**
   * With `http.auth`: the protected resource metadata (RFC 9728) is served at the resource's origin, outside the
   * global prefix, so it is routed on the HTTP adapter itself (before Nest's not-found handler).
   */
  onModuleInit(): void {
    const { http } = this.options;
    const adapter = this.adapterHost?.httpAdapter;
    if (http === false || !adapter || http?.mount === 'server') return;
    // Nest has mapped the routes and registered its body parsers: the endpoint's route is taken from them.
    const routes = routePaths(applicationConfig(this.moduleRef), http?.path ?? '/mcp');
    deferRouteBodies(adapter, routes);
    const serve = (req: Parameters<McpService['serveHttp']>[0], res: Parameters<McpService['serveHttp']>[1]) => void this.serveHttp(req, res);
    // The server card (SEP-2127): `<route>/server-card` and the well-known path, on the adapter as the metadata is.
    if (http?.serverCard) {
      for (const path of new Set(routes.flatMap((route) => serverCardPaths(route)))) {
        adapter.get(path, serve);
        adapter.options(path, serve);
      }
    }
    if (!http?.auth) return;
    if (!http.auth.resource) throw resourceMissing();
    for (const path of authGate().metadataPathsOf(http.auth.resource)) {
      adapter.get(path, serve);
      adapter.options(path, serve);
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    const { http, middleware, modules: _modules, ...options } = this.options;
    const servers = checkNestServers(this.discovery, (instance) => instance instanceof McpService, (instance) => (instance as McpService).options);
    const served = servedNestModules(this.modules, this.options);
    const services = { discovery: this.discovery, moduleRef: this.moduleRef, externalContextCreator: this.externalContextCreator, modules: this.modules };
    const host = new NestHost(options, services, middleware, served);
    const { built: _built, ...build } = this.cliBuild ?? { built: undefined };
    // app.close() while Nest still initialises: what is built after it is closed at once (its shutdown hook has run).
    if (this.stopped) return;
    const composed = await composeApplication(host, build);
    this.built = composed.app;
    if (this.stopped) return void (await this.built.close());
    this.cliBuild?.built(composed, options.name);
    if (servers.length > 1) {
      this.built.refuseUnnamedComponents(
        `The Nest application serves several MCP servers (${servers.map((s) => `'${s.name}'`).join(', ')}), and McpComponents does not say which one it controls.\n` +
          `Fix: inject the McpComponents of one server: @Inject(McpComponents.of('${servers[0].name}')).`,
      );
    }
    // Proxied servers and OpenAPI documents: those naming this server, or, unnamed, those its modules import.
    const wanted = <T extends { options: { server?: string } }>(kind: new (...args: never[]) => T): T[] =>
      this.discovery
        .getProviders()
        .filter((wrapper) => wrapper.instance instanceof kind)
        .filter((wrapper) => {
          const { server } = (wrapper.instance as T).options;
          return server !== undefined ? server === options.name : !served || served.has(wrapper.host as never);
        })
        .map((wrapper) => wrapper.instance as T);
    const logger = options.logger ?? stderrLogger;
    try {
      // The proxy and OpenAPI modules load only for an application that has some.
      this.proxies = wanted(McpProxyProvider).map((proxy) => new (proxies().McpProxy)(proxy.options, this.built!, logger));
      this.apis = wanted(McpOpenApiProvider).map((api) => new (openApis().McpOpenApi)(api.options, this.built!, logger));
      // OpenAPI documents are read now (bounded), and a bad one stops the bootstrap (the others' readings are aborted).
      await Promise.all(this.apis.map((api) => api.onApplicationBootstrap()));
      // Work that outlives the bootstrap starts once the application is known to have initialised: when it is first
      // served (listen(), connect(), the endpoint's first request), Nest's app.listen() has bound, or work() is called.
      // That is the remotes (a child process, a connection) and a durable queue's worker with its store's watch. Nest
      // runs no shutdown hook when a provider's onApplicationBootstrap fails after this one, and a failed
      // createApplicationContext() leaves the caller nothing to close: started now, they would outlive it.
      this.built.deferUntilServed(() => this.work());
      this.listening = this.adapterHost?.listen$?.subscribe(() => void this.work().catch(() => undefined));
      // The endpoint is made now, so that a mistake in its options stops the bootstrap, not the first request.
      const adapter = this.adapterHost?.httpAdapter;
      if (http === false || !adapter) return;
      const handler = this.endpoint();
      // Mounted until the server closes: while Nest shuts down, the endpoint answers what arrives (it drains).
      if (http?.mount === 'server') mountAhead(adapter.getHttpServer(), http.path ?? '/mcp', handler);
    } catch (error) {
      // Nest calls no shutdown hook after a failed init: what this service started (remotes) ends here.
      await this.beforeApplicationShutdown().catch(() => undefined);
      throw error;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.listening?.unsubscribe();
    this.closeLateServer();
    for (const api of this.apis) api.onApplicationShutdown();
    // A connection under way ends (bounded) before the remotes close; none starts after this (work() refuses).
    await this.working?.catch(() => undefined);
    await Promise.all(this.proxies.map((proxy) => proxy.onApplicationShutdown()));
    await this.built?.close();
  }

  /**
   * An `app.close()` called while `app.listen()` was initialising the application: Nest closes its HTTP server
   * before it is bound, then binds it. Bound after the close, it is closed here, so that nothing is left listening.
   */
  private closeLateServer(): void {
    const host = this.adapterHost;
    if (!host?.httpAdapter || host.listening) return;
    host.listen$?.subscribe(() => void Promise.resolve(host.httpAdapter.close()).catch(() => undefined));
  }

  /**
   * Starts the work of an application that serves nothing: the durable queue's worker (`tasks: { queue }`), which
   * takes runs from then on, and the `McpModule.proxy()` remotes its tools call. An application that serves starts
   * it itself, once first served (`listen()`, `connect()`, its endpoint's first request) or once Nest's
   * `app.listen()` has bound; a worker-only one, booted with `NestFactory.createApplicationContext()`, calls it once
   * the context is created. Resolves once the remotes are connected (each bounded). Safe to call twice.
   *
   * @example
   * const worker = await NestFactory.createApplicationContext(WorkerModule);
   * worker.enableShutdownHooks();
   * await worker.get(McpService).work(); // takes runs from the queue until worker.close()
   */
  work(): Promise<void> {
    if (this.stopped) {
      return Promise.reject(new McpReflectError(ErrorCode.ApplicationClosed, 'Cannot start the work of the MCP server: the application is closed.\nFix: call work() before app.close(), on a new application.'));
    }
    const application = this.application;
    // The remotes connect once, each bounded (a remote that is down is retried in the background).
    return (this.working ??= (async () => {
      application.startWork();
      await Promise.all(this.proxies.map((proxy) => proxy.onApplicationBootstrap()));
    })());
  }

  /** The MCP application (its tools, resources and prompts controls, `inspect()`, `notifyResourceUpdated()`). */
  get application(): McpApplication {
    if (!this.built) {
      throw new Error(
        'The MCP server is not built yet: Nest builds it when the application initialises.\n' +
          'Fix: use it after `await app.init()` (or `app.listen()`, or `NestFactory.createApplicationContext()`).',
      );
    }
    return this.built;
  }

  /** Serves on stdio (from `NestFactory.createApplicationContext()`), or on an HTTP server of its own. */
  listen(options: ListenOptions): Promise<void> {
    return this.application.listen(options);
  }

  /** Serves one connection over a transport you provide (an SDK `Transport`, e.g. an in-memory pair). */
  connect(transport: Transport, options?: ConnectOptions): Promise<ConnectionHandle> {
    return this.application.connect(transport, options);
  }

  /** @internal Serves one HTTP request of the endpoint route (Express, or Fastify's raw request and reply). */
  serveHttp(req: IncomingMessage & { body?: unknown; raw?: IncomingMessage }, res: ServerResponse & { raw?: ServerResponse; hijack?: () => void }): Promise<void> {
    const { http } = this.options;
    const handler = this.endpoint();
    res.hijack?.(); // Fastify: the reply is written to the raw response
    const raw = (req.raw ?? req) as IncomingMessage & { auth?: unknown };
    // A body the application's parsers were kept from is read by the endpoint, within its bounds; one they parsed
    // anyway (an adapter other than Express's and Fastify's) is held to the same bounds.
    const parsed = takeDeferred(raw) ? undefined : req.body;
    const identity = http ? http.identity?.(req) : undefined;
    if (identity) raw.auth = authInfoOf(completeAuth(identity, 'nest'));
    return handler(raw, res.raw ?? res, parsed);
  }

  private endpoint(): NodeHttpHandler {
    const { http } = this.options;
    const options = http === false || http === undefined ? {} : withoutPath(http);
    // As a route, which origins may call is Nest's CORS (`enableCors()`) to decide: the endpoint still checks the
    // Host (DNS rebinding), and Origin only when `allowedOrigins` says so. Mounted on the server, no CORS runs.
    const route = !(http && http.mount === 'server');
    return (this.http ??= this.application.createHttpHandler(route && options.allowedOrigins === undefined ? { ...options, allowedOrigins: [] } : options));
  }
}

function resourceMissing(): BootstrapError {
  return new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    "Cannot serve the MCP endpoint with http.auth: auth.resource is missing, and inside a Nest application the endpoint's public URL is not known before it serves.\n" +
      "Fix: give the endpoint's canonical URL, e.g. McpModule.forRoot({ http: { auth: { issuer, resource: 'https://mcp.example.com/api/mcp' } } }).",
  );
}

/** The endpoint's options, without what only the Nest route uses. */
function withoutPath(options: McpNestHttpOptions): HttpOptions {
  const { path: _path, guards: _guards, identity: _identity, mount: _mount, ...rest } = options;
  return rest;
}
