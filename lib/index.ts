// The public API of mcp-reflect: every export here is supported; anything else is internal. The root holds what
// every server needs (decorators, McpModule/McpFactory/McpApplication, Context, results, errors, DI); the rest has
// one home each, its subpath: mcp-reflect/redis, /builtins, /tasks, /state, /inspection, /auth-server, /testing,
// /common (shared tool classes, and a Nest application with /nest). docs/api/ records each entry's surface.
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
export type { McpProvider, ProvidedComponents, ProvidedTool, ProvidedResource, ProvidedTemplate, ProvidedPrompt, ProvidedPromptArgument, ProvidedCompleter, ProvidedSkill, McpSkillsOptions, SkillFileContents } from './interfaces';
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
export type { ClientInfo, ContextLogger, McpTransportKind, ElicitResult, InputOptions, LogLevel, ProgressUpdate, SampleOptions, SamplingMessage, SamplingResult } from './context';
export { McpModule, McpFactory, McpApplication } from './host';
export { InMemoryEventStore } from './transports';
export type { FetchHandler, FetchHandlerOptions, FetchRequestInfo, HttpListenOptions, HttpOptions, NodeHttpHandler, ServerCardOptions, EventStore, InMemoryEventStoreOptions, SessionRecord, SessionStore } from './transports';
// What `app.connect()` returns.
export type { ConnectionHandle } from './transports';
export type { ChangeBus, ChangeMessage } from './server';
export type { ListenOptions, StdioListenOptions, ConnectOptions, ShutdownSignal, McpFactoryOptions, McpModuleAsyncOptions, McpModuleOptions, McpWarningOptions, ToolSearchOptions, Transport } from './host';
// Tool search (docs/composition.md#tool-search): the tools/list `_meta` key that asks for every tool.
export { FULL_TOOL_LIST } from './server';

export type { CacheHints } from './host/mcp-options';
export { ToolResult, text, image, audio, embeddedResource, resourceLink } from './tools';
export type {
  ContentBlock,
  TextContent,
  ImageContent,
  AudioContent,
  EmbeddedResource,
  ResourceLink,
  ToolDescriptor,
} from './tools';
export type { ServerLogger } from './interfaces';
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
  StandardSchema,
  StandardSchemaProps,
  StandardResult,
  StandardIssue,
  StandardJsonSchemaConverter,
  StandardOutput,
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
  McpSessionEnd,
  McpSessionObserver,
  McpAuth,
  AuthOptions,
  DpopOptions,
  DpopNonceOptions,
  TokenVerifier,
  IntrospectionOptions,
} from './interfaces';

// Moved in 0.2.0 to their one home (CHANGELOG.md, "Migrating to 0.2.0"): kept here, deprecated, for one release.
import { RedisEventStore as RedisEventStoreHome, RedisSessionStore as RedisSessionStoreHome, RedisBus as RedisBusHome, RedisTaskStore as RedisTaskStoreHome, RedisStateStore as RedisStateStoreHome, type RedisClient as RedisClientHome, type RedisSubscriber as RedisSubscriberHome, type RedisOptions as RedisOptionsHome, type RedisEventStoreOptions as RedisEventStoreOptionsHome, type RedisSessionStoreOptions as RedisSessionStoreOptionsHome, type RedisTaskStoreOptions as RedisTaskStoreOptionsHome, type RedisStateStoreOptions as RedisStateStoreOptionsHome } from './scale-out';
import { TimingInterceptor as TimingInterceptorHome, RateLimitGuard as RateLimitGuardHome, RateLimitError as RateLimitErrorHome, ResponseCacheInterceptor as ResponseCacheInterceptorHome, UpstreamErrorFilter as UpstreamErrorFilterHome, UpstreamHttpError as UpstreamHttpErrorHome, assertUpstreamOk as assertUpstreamOkHome, OpenTelemetryInterceptor as OpenTelemetryInterceptorHome, type TimingEntry as TimingEntryHome, type TimingOptions as TimingOptionsHome, type RequestOutcome as RequestOutcomeHome, type CallerScope as CallerScopeHome, type RateLimitOptions as RateLimitOptionsHome, type ResponseCacheOptions as ResponseCacheOptionsHome, type UpstreamErrorFilterOptions as UpstreamErrorFilterOptionsHome, type UpstreamResponse as UpstreamResponseHome, type OpenTelemetryOptions as OpenTelemetryOptionsHome, type SpanLike as SpanLikeHome, type TracerLike as TracerLikeHome } from './builtins';
import { InMemoryTaskStore as InMemoryTaskStoreHome, TaskLimitError as TaskLimitErrorHome, TASKS_EXTENSION as TASKS_EXTENSIONHome, type TaskStore as TaskStoreHome, type TaskRecord as TaskRecordHome, type TaskStatus as TaskStatusHome, type TaskChange as TaskChangeHome, type TaskEvent as TaskEventHome, type TaskPage as TaskPageHome, type TaskError as TaskErrorHome, type NewTask as NewTaskHome, type TaskStoreOptions as TaskStoreOptionsHome, type TasksOptions as TasksOptionsHome } from './tasks';
import { type ToolTaskSupport as ToolTaskSupportHome, type ToolTaskOptions as ToolTaskOptionsHome } from './interfaces';
import { InMemoryStateStore as InMemoryStateStoreHome, StateError as StateErrorHome, type StateOptions as StateOptionsHome, type StateSetOptions as StateSetOptionsHome, type StateStore as StateStoreHome, type StateStoreOptions as StateStoreOptionsHome, type UserState as UserStateHome } from './state';
import { type ComponentOwner as ComponentOwnerHome, type InspectedComponent as InspectedComponentHome, type InspectedCompletion as InspectedCompletionHome, type InspectedPrompt as InspectedPromptHome, type InspectedResource as InspectedResourceHome, type InspectedResourceTemplate as InspectedResourceTemplateHome, type InspectedTask as InspectedTaskHome, type InspectedTool as InspectedToolHome, type McpInspection as McpInspectionHome } from './host';
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export const RedisEventStore: typeof RedisEventStoreHome = RedisEventStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisEventStore = RedisEventStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export const RedisSessionStore: typeof RedisSessionStoreHome = RedisSessionStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisSessionStore = RedisSessionStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export const RedisBus: typeof RedisBusHome = RedisBusHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisBus = RedisBusHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export const RedisTaskStore: typeof RedisTaskStoreHome = RedisTaskStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisTaskStore = RedisTaskStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export const RedisStateStore: typeof RedisStateStoreHome = RedisStateStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisStateStore = RedisStateStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisClient = RedisClientHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisSubscriber = RedisSubscriberHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisOptions = RedisOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisEventStoreOptions = RedisEventStoreOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisSessionStoreOptions = RedisSessionStoreOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisTaskStoreOptions = RedisTaskStoreOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/redis' */
export type RedisStateStoreOptions = RedisStateStoreOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export const TimingInterceptor: typeof TimingInterceptorHome = TimingInterceptorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type TimingInterceptor = TimingInterceptorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export const RateLimitGuard: typeof RateLimitGuardHome = RateLimitGuardHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type RateLimitGuard = RateLimitGuardHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export const RateLimitError: typeof RateLimitErrorHome = RateLimitErrorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type RateLimitError = RateLimitErrorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export const ResponseCacheInterceptor: typeof ResponseCacheInterceptorHome = ResponseCacheInterceptorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type ResponseCacheInterceptor = ResponseCacheInterceptorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export const UpstreamErrorFilter: typeof UpstreamErrorFilterHome = UpstreamErrorFilterHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type UpstreamErrorFilter = UpstreamErrorFilterHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export const UpstreamHttpError: typeof UpstreamHttpErrorHome = UpstreamHttpErrorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type UpstreamHttpError = UpstreamHttpErrorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export const assertUpstreamOk: typeof assertUpstreamOkHome = assertUpstreamOkHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export const OpenTelemetryInterceptor: typeof OpenTelemetryInterceptorHome = OpenTelemetryInterceptorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type OpenTelemetryInterceptor = OpenTelemetryInterceptorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type TimingEntry = TimingEntryHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type TimingOptions = TimingOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type RequestOutcome = RequestOutcomeHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type CallerScope = CallerScopeHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type RateLimitOptions = RateLimitOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type ResponseCacheOptions = ResponseCacheOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type UpstreamErrorFilterOptions = UpstreamErrorFilterOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type UpstreamResponse = UpstreamResponseHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type OpenTelemetryOptions = OpenTelemetryOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type SpanLike = SpanLikeHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/builtins' */
export type TracerLike = TracerLikeHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export const InMemoryTaskStore: typeof InMemoryTaskStoreHome = InMemoryTaskStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type InMemoryTaskStore = InMemoryTaskStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export const TaskLimitError: typeof TaskLimitErrorHome = TaskLimitErrorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type TaskLimitError = TaskLimitErrorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export const TASKS_EXTENSION: typeof TASKS_EXTENSIONHome = TASKS_EXTENSIONHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type TaskStore = TaskStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type TaskRecord = TaskRecordHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type TaskStatus = TaskStatusHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type TaskChange = TaskChangeHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type TaskEvent = TaskEventHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type TaskPage = TaskPageHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type TaskError = TaskErrorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type NewTask = NewTaskHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type TaskStoreOptions = TaskStoreOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type TasksOptions = TasksOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type ToolTaskSupport = ToolTaskSupportHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/tasks' */
export type ToolTaskOptions = ToolTaskOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/state' */
export const InMemoryStateStore: typeof InMemoryStateStoreHome = InMemoryStateStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/state' */
export type InMemoryStateStore = InMemoryStateStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/state' */
export const StateError: typeof StateErrorHome = StateErrorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/state' */
export type StateError = StateErrorHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/state' */
export type StateOptions = StateOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/state' */
export type StateSetOptions = StateSetOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/state' */
export type StateStore = StateStoreHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/state' */
export type StateStoreOptions = StateStoreOptionsHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/state' */
export type UserState = UserStateHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/inspection' */
export type ComponentOwner = ComponentOwnerHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/inspection' */
export type InspectedComponent = InspectedComponentHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/inspection' */
export type InspectedCompletion = InspectedCompletionHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/inspection' */
export type InspectedPrompt = InspectedPromptHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/inspection' */
export type InspectedResource = InspectedResourceHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/inspection' */
export type InspectedResourceTemplate = InspectedResourceTemplateHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/inspection' */
export type InspectedTask = InspectedTaskHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/inspection' */
export type InspectedTool = InspectedToolHome;
/** @deprecated since 0.2.0: import from 'mcp-reflect/inspection' */
export type McpInspection = McpInspectionHome;
