// The public API of mcp-reflect: every export here is supported; anything else is internal.
export { Tool, Param, Args, Ctx, Field, Description, Injectable, Inject, Optional, Global, Module } from './decorators';
export { forwardRef, ModuleRef } from './di';
export type {
  ModuleRefGetOptions,
  OnModuleInit,
  OnApplicationBootstrap,
  OnModuleDestroy,
  BeforeApplicationShutdown,
  OnApplicationShutdown,
} from './di';
export { Context } from './context';
export type { ContextLogger, LogLevel } from './context';
export { McpModule, McpFactory, McpApplication } from './module';
export type { ListenOptions, McpFactoryOptions, McpModuleAsyncOptions, McpModuleOptions, Transport } from './module';
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
export { MCP_OPTIONS, CONTEXT, Scope } from './constants';
export type {
  Constructor,
  DependencyToken,
  ForwardReference,
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
