import type { McpModuleOptions } from '../host';
import type { HttpOptions } from '../transports';

/** The token of the options given to `McpModule.forRoot()` of mcp-reflect/nest. */
export const MCP_NEST_OPTIONS = Symbol('mcp-reflect:nest-options');

/** Where and how the Nest application serves the MCP endpoint over its own HTTP server. */
export interface McpNestHttpOptions extends HttpOptions {
  /** The route of the endpoint, under the application's global prefix. Default `/mcp`. */
  readonly path?: string;
}

/**
 * `McpModule.forRoot()` of mcp-reflect/nest: the options of the standalone `McpModule.forRoot()` (name, version,
 * instructions, metadata, masking, pagination, tasks, cache hints, …) and where to serve.
 */
export interface McpNestOptions extends McpModuleOptions {
  /**
   * Streamable HTTP on the Nest application's HTTP server (a route of its own, so Nest middleware, the global
   * prefix, CORS and guards apply): the endpoint's options, or false for none (stdio or in-memory only).
   * Default: served at `/mcp`.
   */
  readonly http?: McpNestHttpOptions | false;
}
