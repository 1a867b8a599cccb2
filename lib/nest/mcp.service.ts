import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, ModuleRef } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { composeApplication, type ConnectOptions, type ListenOptions, type McpApplication } from '../host';
import type { McpAuth } from '../context';
import { authInfoOf } from '../server';
import type { ConnectionHandle, HttpOptions, NodeHttpHandler, Transport } from '../transports';
import { MCP_NEST_OPTIONS, type McpIdentity, type McpNestHttpOptions, type McpNestOptions } from './mcp-nest.options';
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
    const { http: _http, middleware, ...options } = this.options;
    const services = { discovery: this.discovery, moduleRef: this.moduleRef, externalContextCreator: this.externalContextCreator };
    const host = new NestHost(options, services, middleware);
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
    const raw = (req.raw ?? req) as IncomingMessage & { auth?: unknown };
    const identity = http ? http.identity?.(req) : undefined;
    if (identity) raw.auth = authInfoOf(identityAuth(identity));
    return this.http(raw, res.raw ?? res, req.body);
  }
}

/** The endpoint's options, without what only the Nest route uses. */
function withoutPath(options: McpNestHttpOptions): HttpOptions {
  const { path: _path, guards: _guards, identity: _identity, ...rest } = options;
  return rest;
}

/** An identity from a Nest guard, completed as an McpAuth. */
function identityAuth(identity: McpIdentity): McpAuth {
  return {
    clientId: identity.clientId ?? 'nest',
    scopes: identity.scopes ?? [],
    claims: identity.claims ?? (identity.subject !== undefined ? { sub: identity.subject } : {}),
    token: identity.token ?? '',
    ...(identity.subject !== undefined ? { subject: identity.subject } : {}),
    ...(identity.issuer !== undefined ? { issuer: identity.issuer } : {}),
    ...(identity.expiresAt !== undefined ? { expiresAt: identity.expiresAt } : {}),
  };
}
