// `mcp-reflect/common`: what a package of shared tool classes needs, without the server. The decorators only
// write metadata, so a library of tools can depend on this entry alone: it loads neither the MCP SDK nor the
// DI container, the schema builder or a transport (spec/package checks it). The application that serves the
// classes imports `mcp-reflect`; both read the same metadata from one copy of the package. A NestJS application
// imports from this entry and mcp-reflect/nest only (docs/nestjs.md).
export {
  Tool,
  Param,
  Args,
  Ctx,
  Field,
  Description,
  Injectable,
  Inject,
  Optional,
  Global,
  Module,
  Resource,
  ResourceTemplate,
  ResourceList,
  Prompt,
  Complete,
  UseGuards,
  UseInterceptors,
  UsePipes,
  UseFilters,
  Catch,
  SetMetadata,
  createParamDecorator,
  Scopes,
  Public,
  CurrentAuth,
  UiResource,
} from '../decorators';
export type { ClassOrMethodDecorator } from '../decorators';
export { McpReflectError, ToolError, RequestError, RpcCode, InvalidArgumentsError } from '../errors';
// What a component returns: the results and content helpers (plain functions and classes, no SDK).
export { ToolResult, text, image, audio, embeddedResource, resourceLink } from '../content';
export type { ContentBlock, TextContent, ImageContent, AudioContent, EmbeddedResource, ResourceLink } from '../content';
export { ResourceResult } from '../resources/resource-result';
export type { ResourceContents } from '../resources/resource-result';
export { userMessage, assistantMessage } from '../prompts/prompt-result';
export type { PromptMessage, PromptResult } from '../prompts/prompt-result';
export { Scope } from '../constants';
export type { Context, McpAuth } from '../context';
export type {
  ArgumentMetadata,
  CallHandler,
  CanActivate,
  ExceptionFilter,
  ExecutionContext,
  FieldOptions,
  InjectableOptions,
  McpInterceptor,
  ModuleOptions,
  ParamOptions,
  PipeTransform,
  PromptOptions,
  ResourceOptions,
  ResourceTemplateOptions,
  ToolOptions,
  StandardSchema,
  StandardOutput,
} from '../interfaces';
