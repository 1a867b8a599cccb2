import './peers';
export { McpModule } from './mcp.module';
export type { McpNestAsyncOptions } from './mcp.module';
export { McpService } from './mcp.service';
export { MCP_NEST_OPTIONS } from './mcp-nest.options';
export type { McpIdentity, McpNestHttpOptions, McpNestOptions } from './mcp-nest.options';
export type { McpRequest } from './nest-request';
export { MCP_CONTEXT_TYPE, mcpExecutionOf } from './nest-enhancers';
