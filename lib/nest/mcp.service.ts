import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, ModuleRef } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { composeApplication, type ConnectOptions, type ListenOptions, type McpApplication } from '../host';
import type { ConnectionHandle, NodeHttpHandler, Transport } from '../transports';
import { MCP_NEST_OPTIONS, type McpNestOptions } from './mcp-nest.options';
import { NestHost } from './nest-host';

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
@Injectable()
export class McpService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private built?: McpApplication;
  private http?: NodeHttpHandler;

  constructor(
    @Inject(MCP_NEST_OPTIONS) private readonly options: McpNestOptions,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
    @Inject(ExternalContextCreator) private readonly externalContextCreator: ExternalContextCreator,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { http: _http, ...options } = this.options;
    const host = new NestHost(options, { discovery: this.discovery, moduleRef: this.moduleRef, externalContextCreator: this.externalContextCreator });
    this.built = (await composeApplication(host)).app;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.built?.close();
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
    this.http ??= this.application.createHttpHandler(http === false || http === undefined ? {} : withoutPath(http));
    res.hijack?.(); // Fastify: the reply is written to the raw response
    return this.http(req.raw ?? req, res.raw ?? res, req.body);
  }
}

function withoutPath<T extends { path?: string }>(options: T): Omit<T, 'path'> {
  const { path: _path, ...rest } = options;
  return rest;
}
