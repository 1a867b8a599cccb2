import type { BuildOptions, BuiltApplication } from '../host';

/**
 * @internal The token under which the mcp-reflect CLI hands McpService how to build the MCP server of a Nest
 * application it boots (`mcp-reflect inspect | call | dev | validators` on a Nest root module): the generated
 * types it found, the validators recorder, and who wants the built application. `Symbol.for`, so that the CLI and
 * the application agree on it even from two copies of mcp-reflect. An application never provides it itself.
 */
export const MCP_NEST_CLI_BUILD = Symbol.for('mcp-reflect:nest-cli-build');

/** @internal What the CLI provides under MCP_NEST_CLI_BUILD. */
export interface NestCliBuild extends Pick<BuildOptions, 'metadata' | 'fallbackMetadata' | 'recordValidators'> {
  /** Told of each MCP server McpService builds (an application with several `McpModule.forRoot()` builds several). */
  readonly built: (built: BuiltApplication, name: string | undefined) => void;
}
