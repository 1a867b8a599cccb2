export { McpProxy } from './mcp-proxy';
export type { ProxiedComponentControl } from './mcp-proxy';
export type { McpProxyOptions, McpProxyStdio } from './proxy.options';
export { checkProxyOptions } from './proxy-options.check';
