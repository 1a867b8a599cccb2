// The public API of mcp-reflect: every export here is supported; anything else is internal.
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
} from './decorators';
// MCP Apps (io.modelcontextprotocol/ui): `ui://` views and the tools linked to them (docs/apps.md).
export { UiResource } from './decorators';
export { MCP_APPS_EXTENSION, MCP_APP_MIME_TYPE } from './constants';
export type { ToolUiOptions, ToolVisibility, UiResourceCsp, UiResourceOptions, UiResourcePermissions } from './interfaces/tool-options.interface';
export type { ClassOrMethodDecorator } from './decorators';
export { Reflector } from './pipeline';
export type { ReflectableDecorator } from './pipeline';
export { ResourceResult } from './resources';
export type { ResourceContents, ResourceDescriptor, TemplateDescriptor } from './resources';
export { userMessage, assistantMessage } from './prompts';
export type { PromptMessage, PromptResult, PromptDescriptor } from './prompts';
export type { CompletionContext, CompletionResult } from './completions';
export type { ComponentControl } from './host/component-control';
export type { McpProxyOptions, McpProxyStdio } from './proxy';
export type { McpOpenApiOptions, OpenApiMethod, OpenApiOperationInfo, OpenApiRule } from './openapi';
export { McpServers } from './host/mcp-servers';
export type { ServerEndpoint, ServersListenOptions } from './host/mcp-servers';
export { McpComponents } from './host/component-control';
// Providers (docs/composition.md#providers): sources of components other than decorated classes.
export type { ProviderControl } from './host/component-control';
export type { ServedProvider } from './host/provider-control';
export type { McpProvider, ProvidedComponents, ProvidedTool, ProvidedResource, ProvidedTemplate, ProvidedPrompt, ProvidedPromptArgument, ProvidedCompleter } from './interfaces';
// What `mcp-reflect generate` writes (docs/types.md).
export type { PrecompiledValidators } from './interfaces';
export type { GeneratedMetadata, GeneratedClass, GeneratedMethod, GeneratedParam, GeneratedProperty, GeneratedType } from './interfaces';
export { forwardRef, ModuleRef } from './di';
export type {
  ModuleRefGetOptions,
  OnModuleInit,
  OnApplicationBootstrap,
  OnModuleDestroy,
  BeforeApplicationShutdown,
  OnApplicationShutdown,
} from './di';
export { Ask, Context, InvalidAnswerError, rethrowIfInputRequired } from './context';
export type { Answers, Question } from './context';
export type { ClientInfo, ContextLogger, ElicitResult, InputOptions, LogLevel, ProgressUpdate, SampleOptions, SamplingMessage, SamplingResult } from './context';
export { McpModule, McpFactory, McpApplication } from './host';
export { InMemoryEventStore } from './transports';
export type { FetchHandler, FetchHandlerOptions, FetchRequestInfo, HttpListenOptions, HttpOptions, NodeHttpHandler, EventStore, InMemoryEventStoreOptions, SessionRecord, SessionStore } from './transports';
export type { ChangeBus, ChangeMessage } from './server';
// Scale-out on Redis (also mcp-reflect/redis).
export { RedisEventStore, RedisSessionStore, RedisBus } from './scale-out';
export type { RedisClient, RedisSubscriber, RedisOptions, RedisEventStoreOptions, RedisSessionStoreOptions } from './scale-out';
export type { ListenOptions, StdioListenOptions, ConnectOptions, ShutdownSignal, McpFactoryOptions, McpModuleAsyncOptions, McpModuleOptions, McpWarningOptions, ToolSearchOptions, Transport } from './host';
// Tool search (docs/composition.md#tool-search): the tools/list `_meta` key that asks for every tool.
export { FULL_TOOL_LIST } from './server';

export type { CacheHints } from './host/mcp-options';
// `app.inspect()`: what an application serves, as frozen descriptions (docs/inspection.md).
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
} from './host';
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
export {
  McpReflectError,
  ErrorCode,
  BootstrapError,
  BootstrapErrorCode,
  ToolError,
  RequestError,
  RpcCode,
  InvalidArgumentsError,
  TimeoutError,
  InvalidTokenError,
  InsufficientScopeError,
  AuthUnavailableError,
} from './errors';
export { MCP_OPTIONS, CONTEXT, Scope, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, APP_FILTER, APP_MIDDLEWARE } from './constants';
export type {
  Constructor,
  DependencyToken,
  ForwardReference,
  DynamicModule,
  McpFeatureOptions,
  AddOptions,
  AddedComponents,
  ArgTransform,
  ComponentTransform,
  ComponentTransforms,
  ToolTransform,
  SchemaRefs,
  EnumLike,
  FieldOptions,
  DeclaredKinds,
  InjectableOptions,
  InjectionToken,
  JsonSchema,
  ModuleImport,
  ModuleOptions,
  ParamOptions,
  PromptOptions,
  ResourceAnnotations,
  ResourceOptions,
  ResourceTemplateOptions,
  CacheHint,
  CompleteOptions,
  Provider,
  ClassProvider,
  ValueProvider,
  FactoryProvider,
  ExistingProvider,
  ToolAnnotations,
  ToolIcon,
  ToolOptions,
  TypeHint,
  TypeName,
  TypeRef,
  McpMethod,
  McpComponentKind,
  RpcArgumentsHost,
  ArgumentsHost,
  ExecutionContext,
  CanActivate,
  CallHandler,
  McpInterceptor,
  ArgumentMetadata,
  PipeTransform,
  ExceptionFilter,
  EnhancerRef,
  MiddlewareContext,
  NextMiddleware,
  MiddlewareHook,
  McpMiddleware,
  McpAuth,
  AuthOptions,
  TokenVerifier,
  IntrospectionOptions,
} from './interfaces';
export {
  TimingInterceptor,
  RateLimitGuard,
  RateLimitError,
  ResponseCacheInterceptor,
  UpstreamErrorFilter,
  UpstreamHttpError,
  assertUpstreamOk,
  OpenTelemetryInterceptor,
} from './builtins';
export type {
  TimingEntry,
  TimingOptions,
  RequestOutcome,
  CallerScope,
  RateLimitOptions,
  ResponseCacheOptions,
  UpstreamErrorFilterOptions,
  UpstreamResponse,
  OpenTelemetryOptions,
  SpanLike,
  TracerLike,
} from './builtins';
// Tasks (docs/tasks.md): `@Tool({ task })` runs a call as a task the client polls; the stores tasks live in.
export { InMemoryTaskStore, TaskLimitError, TASKS_EXTENSION } from './tasks';
export type { TaskStore, TaskRecord, TaskStatus, TaskChange, TaskEvent, TaskPage, TaskError, NewTask, TaskStoreOptions, TasksOptions } from './tasks';
export type { ToolTaskSupport, ToolTaskOptions } from './interfaces';
export { RedisTaskStore } from './scale-out';
export type { RedisTaskStoreOptions } from './scale-out';
// State per caller (docs/state.md): `ctx.state` and the stores it lives in.
export { InMemoryStateStore, StateError } from './state';
export type { StateOptions, StateSetOptions, StateStore, StateStoreOptions, UserState } from './state';
export { RedisStateStore } from './scale-out';
export type { RedisStateStoreOptions } from './scale-out';
