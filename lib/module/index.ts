export { McpModule } from './mcp.module';
export { McpFactory } from './mcp-factory';
export { McpApplication } from './mcp-application';
export type { ListenOptions, Transport } from './mcp-application';
export type { McpModuleOptions } from './mcp-options';
