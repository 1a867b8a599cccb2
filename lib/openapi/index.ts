export { McpOpenApi } from './mcp-openapi';
export type { OpenApiComponentControl } from './mcp-openapi';
export { checkOpenApiOptions } from './openapi-options.check';
export type { OpenApiSettings } from './openapi-options.check';
export type { McpOpenApiOptions, OpenApiMethod, OpenApiOperationInfo, OpenApiRule } from './openapi.options';
