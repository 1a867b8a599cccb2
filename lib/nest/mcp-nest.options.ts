import type { CanActivate, DynamicModule, Type } from '@nestjs/common';
import type { McpAuth } from '../context';
import type { McpMiddleware } from '../interfaces';
import type { McpModuleOptions } from '../host';
import type { HttpOptions } from '../transports';

/** The token of the options given to `McpModule.forRoot()` of mcp-reflect/nest. */
export const MCP_NEST_OPTIONS = Symbol('mcp-reflect:nest-options');

/** Where and how the Nest application serves the MCP endpoint over its own HTTP server. */
export interface McpNestHttpOptions extends HttpOptions {
  /** The route of the endpoint, under the application's global prefix (with `mount: 'server'`, from the root). Default `/mcp`. */
  readonly path?: string;
  /**
   * Where the endpoint is served. `'route'` (default): as a controller route of the application, so Nest
   * middleware, the global prefix, `enableCors()`, HTTP guards (`guards`, `identity`) and Nest's body parser
   * apply to it as to controllers. `'server'`: from the Node HTTP server's own request listener, ahead of
   * Express or Fastify (as `@rekog/mcp-nest` does), which costs a request what the standalone endpoint costs;
   * none of Nest's HTTP layer applies (no global prefix, middleware, CORS or HTTP guards: use the endpoint's own
   * `auth`, `allowedOrigins` and bounds), and `auth.server` is served there too. Every other request reaches
   * the application as before.
   */
  readonly mount?: 'route' | 'server';
  /**
   * Nest guards in front of the endpoint (an HTTP guard such as Passport's `AuthGuard('jwt')`): a request they
   * refuse never reaches MCP. Global guards (`APP_GUARD`) apply to the endpoint as to every controller.
   */
  readonly guards?: readonly (Type<CanActivate> | CanActivate)[];
  /**
   * The caller's identity from the framework request once the guards let it through (e.g. Passport's
   * `req.user`): it becomes `ctx.auth`, what `@Scopes()` and guards check and what tasks and sessions are
   * owned by. Missing fields: client id `nest`, no scopes, no claims, an empty token. Use it instead of `auth`
   * (the endpoint's own bearer-token verification), not with it.
   */
  readonly identity?: (request: any) => McpIdentity | undefined;
}

/** What `identity` gives: the fields of an `McpAuth` it knows. */
export type McpIdentity = Partial<McpAuth>;

/**
 * `McpModule.forRoot()` of mcp-reflect/nest: the options of the standalone `McpModule.forRoot()` (name, version,
 * instructions, metadata, masking, pagination, tasks, cache hints, …) and where to serve.
 */
export interface McpNestOptions extends Omit<McpModuleOptions, 'guards' | 'interceptors' | 'pipes' | 'filters' | 'middleware' | 'modules'> {
  /**
   * The Nest modules this server serves (and the modules they import), which it imports itself. Unset: every
   * module of the application. Several `McpModule.forRoot()` in one application (each with its own name,
   * options and `http.path`) each name theirs (docs/composition.md#several-servers-in-one-application).
   */
  readonly modules?: readonly (Type | DynamicModule)[];
  /**
   * Protocol middleware (`onRequest`, `onCallTool`, …) as instances. Guards, interceptors, pipes and filters are
   * Nest's: `@UseGuards()` & co., `APP_GUARD` & co. and `app.useGlobal*()`.
   */
  readonly middleware?: readonly McpMiddleware[];
  /**
   * Streamable HTTP on the Nest application's HTTP server (a route of its own, so Nest middleware, the global
   * prefix, CORS and guards apply): the endpoint's options, or false for none (stdio or in-memory only).
   * Default: served at `/mcp`.
   */
  readonly http?: McpNestHttpOptions | false;
}
