export { McpModule } from './mcp.module';
export { McpFactory } from './mcp-factory';
export type { McpFactoryOptions } from './mcp-factory';
export type { McpModuleAsyncOptions } from './mcp.module';
export { McpApplication } from './mcp-application';
export type { ListenOptions, Transport } from './mcp-application';
export type { McpModuleOptions } from './mcp-options';
export type { HttpListenOptions, HttpOptions, NodeHttpHandler, EventStore, InMemoryEventStoreOptions } from '../protocol';
export { InMemoryEventStore } from '../protocol';
