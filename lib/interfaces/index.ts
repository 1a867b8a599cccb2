export type { JsonSchema, SchemaRefs } from './json-schema.interface';
export { SUBSCHEMA_KEYWORDS } from './json-schema.interface';
export type { TypeName, TypeRef, TypeHint, EnumLike } from './type-hint.interface';
export type { ToolOptions, ToolAnnotations, ToolIcon } from './tool-options.interface';
export type { ParamOptions, FieldOptions } from './param-options.interface';
export type { StandardSchema, StandardSchemaProps, StandardResult, StandardIssue, StandardJsonSchemaConverter, StandardOutput } from './standard-schema.interface';
export type {
  InjectionToken,
  ForwardReference,
  DependencyToken,
  ClassProvider,
  ValueProvider,
  FactoryProvider,
  ExistingProvider,
  Provider,
  DynamicModule,
  ModuleImport,
  ModuleOptions,
  McpFeatureOptions,
  AddOptions,
  AddedComponents,
  InjectableOptions,
  DeclaredKinds,
} from './module.interface';
export type { Constructor } from './class.interface';
export type {
  CacheHint,
  ResourceAnnotations,
  ResourceOptions,
  ResourceTemplateOptions,
  PromptOptions,
  CompleteOptions,
} from './component-options.interface';
export type { McpSkillsOptions, SkillFileContents } from './skills-options.interface';
export type {
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
  McpTransportKind,
} from './enhancers.interface';
export type { McpAuth, TokenVerifier, IntrospectionOptions, AuthOptions, DpopOptions, DpopNonceOptions } from './auth.interface';
export type {
  AnonymousLimitOptions,
  AssertionClient,
  AuthorizationServerKeys,
  AuthorizationServerOptions,
  AuthStore,
  ClientIdMetadataDocumentOptions,
  EnterpriseIssuer,
  IdentityAssertionOptions,
  MachineClient,
  MachineClientOptions,
  UpstreamIdentity,
  UpstreamOptions,
  UpstreamTokens,
} from './authorization-server.interface';
export type {
  GeneratedMetadata,
  GeneratedClass,
  GeneratedMethod,
  GeneratedParam,
  GeneratedProperty,
  GeneratedType,
} from './generated-metadata.interface';
export type { ToolTaskSupport, ToolTaskOptions } from './tool-options.interface';
export type { ArgTransform, ComponentTransform, ComponentTransforms, ToolTransform } from './transform.interface';
export type { PrecompiledValidators } from './precompiled-validators.interface';
export type { McpProvider, ProvidedComponents, ProvidedTool, ProvidedResource, ProvidedTemplate, ProvidedPrompt, ProvidedPromptArgument, ProvidedCompleter, ProvidedSkill } from './provider.interface';
export type { ServerLogger } from './logger.interface';
