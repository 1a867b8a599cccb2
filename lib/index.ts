// The public API of mcp-reflect: every export here is supported; anything else is internal.
export { Tool, Param, Args, Ctx, Field, Description, Injectable, Inject, Module } from './decorators';
export { Context } from './context';
export type { ContextLogger, LogLevel } from './context';
export { McpModule, McpFactory, McpApplication } from './module';
export type { ListenOptions, McpModuleOptions, Transport } from './module';
export { ToolResult, text, image, audio, embeddedResource, resourceLink } from './tools';
export type {
  ContentBlock,
  TextContent,
  ImageContent,
  AudioContent,
  EmbeddedResource,
  ResourceLink,
  ServerLogger,
  ToolDescriptor,
} from './tools';
export { McpReflectError, BootstrapError, BootstrapErrorCode, ToolError } from './errors';
export { MCP_OPTIONS } from './constants';
export type {
  Constructor,
  DynamicModule,
  EnumLike,
  FieldOptions,
  InjectableOptions,
  InjectionToken,
  JsonSchema,
  ModuleImport,
  ModuleOptions,
  ParamOptions,
  Provider,
  ToolAnnotations,
  ToolIcon,
  ToolOptions,
  TypeHint,
  TypeName,
  TypeRef,
} from './interfaces';
