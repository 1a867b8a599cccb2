export { McpFeatureModule, McpModule } from './mcp.module';
export { checkFeatureOptions, moduleFeature } from './namespaces';
export { McpFactory } from './mcp-factory';
export type { McpFactoryOptions } from './mcp-factory';
export type { McpModuleAsyncOptions } from './mcp.module';
export { McpApplication } from './mcp-application';
export type { ListenOptions, StdioListenOptions, ConnectOptions, ShutdownSignal, Transport } from './mcp-application';
export type { McpModuleOptions, McpWarningOptions, ToolSearchOptions } from './mcp-options';
export type {
  ComponentOwner,
  InspectedComponent,
  InspectedCompletion,
  InspectedPrompt,
  InspectedResource,
  InspectedResourceTemplate,
  InspectedTask,
  InspectedTool,
  McpInspection,
} from './inspection';
export type { McpHost } from './host';
export { NativeHost } from './native/native-host';
/** @internal The composition of an application (lib/cli, lib/nest): not in the published declarations. */
export { composeApplication } from './compose';
/** @internal */
export type { BuildOptions, BuiltApplication } from './compose';
export { hasComponents } from './explorer';
export { refuseMcpDecoratorsUnderNest, refuseMcpModuleUnderNest } from './foreign-decorators';
export { checkedScopes } from './required-scopes';
export { McpComponents } from './component-control';
export type { ComponentControl } from './component-control';
export { unprovidedComponentClasses } from './unprovided-components';
export { stderrLogger } from './stderr-logger';
