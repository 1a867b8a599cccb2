import { McpReflectError } from './base.error';

/** Stable codes of the errors a user can cause at bootstrap. Documented in docs/errors.md. */
export const BootstrapErrorCode = {
  DecoratorMetadataMissing: 'DECORATOR_METADATA_MISSING',
  GeneratedMetadataStale: 'GENERATED_METADATA_STALE',
  GeneratedMetadataInvalid: 'GENERATED_METADATA_INVALID',
  UndecoratedProperty: 'UNDECORATED_PROPERTY',
  RenamedParameter: 'RENAMED_PARAMETER',
  ParamNameUnreadable: 'PARAM_NAME_UNREADABLE',
  RestParameter: 'REST_PARAMETER',
  UndecoratedParameter: 'UNDECORATED_PARAMETER',
  ArgsMixedWithParam: 'ARGS_MIXED_WITH_PARAM',
  DuplicateArgs: 'DUPLICATE_ARGS',
  DuplicateParamName: 'DUPLICATE_PARAM_NAME',
  ArgsNotClass: 'ARGS_NOT_A_CLASS',
  UnreflectableType: 'UNREFLECTABLE_TYPE',
  ArrayItemTypeMissing: 'ARRAY_ITEM_TYPE_MISSING',
  DuplicateToolName: 'DUPLICATE_TOOL_NAME',
  InvalidToolName: 'INVALID_TOOL_NAME',
  InvalidSchema: 'INVALID_SCHEMA',
  InvalidDefault: 'INVALID_DEFAULT',
  UnknownDependency: 'UNKNOWN_DEPENDENCY',
  CircularDependency: 'CIRCULAR_DEPENDENCY',
  NotInjectable: 'NOT_INJECTABLE',
  DuplicateProvider: 'DUPLICATE_PROVIDER',
  InvalidExport: 'INVALID_EXPORT',
  UnknownOverride: 'UNKNOWN_OVERRIDE',
  InvalidModule: 'INVALID_MODULE',
  InvalidProvider: 'INVALID_PROVIDER',
  McpModuleMissing: 'MCP_MODULE_MISSING',
  InvalidOption: 'INVALID_OPTION',
  DuplicateResource: 'DUPLICATE_RESOURCE',
  DuplicatePrompt: 'DUPLICATE_PROMPT',
  TemplateParamMismatch: 'TEMPLATE_PARAM_MISMATCH',
  InvalidResourceUri: 'INVALID_RESOURCE_URI',
  UnknownCompletionTarget: 'UNKNOWN_COMPLETION_TARGET',
  InvalidEnhancer: 'INVALID_ENHANCER',
  /** A provider's factory threw (or rejected) while the application was built. */
  FactoryFailed: 'FACTORY_FAILED',
  InvalidAuthOptions: 'INVALID_AUTH_OPTIONS',
  InvalidScope: 'INVALID_SCOPE',
  StandardDecorators: 'STANDARD_DECORATORS',
  /** A transform (`forRoot`/`forFeature`/`add`/`proxy({ transforms })`) names a component or argument that does not exist. */
  UnknownTransformTarget: 'UNKNOWN_TRANSFORM_TARGET',
  /** A tool's schema has a `$ref` that points nowhere inside it (it cannot be inlined for clients). */
  UnresolvableSchemaRef: 'UNRESOLVABLE_SCHEMA_REF',
  /** `McpModule.fromOpenApi()`: the document cannot be read, is not OpenAPI 3.0/3.1, or an operation in it cannot be served. */
  InvalidOpenApiDocument: 'INVALID_OPENAPI_DOCUMENT',
  /** `forRoot({ skills })`: a skill cannot be served (beyond the limits, a symlink, a path out of the folder, bad frontmatter). */
  InvalidSkills: 'INVALID_SKILLS',
} as const;
export type BootstrapErrorCode = (typeof BootstrapErrorCode)[keyof typeof BootstrapErrorCode];

/** Thrown by `McpFactory.create()` when the application cannot be built. The message opens with "Cannot …". */
export class BootstrapError extends McpReflectError {
  declare readonly code: BootstrapErrorCode;
  constructor(code: BootstrapErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * A numeric option that must be a whole number of at least 1 (`fallback` when unset), checked once at bootstrap;
 * anything else fails naming where it was given (`where(value)`, e.g. `new InMemoryTaskStore({ maxTasks: 0 })`)
 * and the fix.
 */
export function wholeOption(where: (value: string) => string, value: unknown, fallback: number, unit: string): number {
  const resolved = value ?? fallback;
  if (typeof resolved === 'number' && Number.isSafeInteger(resolved) && resolved >= 1) return resolved;
  throw new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot use ${where(JSON.stringify(resolved))}: it must be a whole number of at least 1.\n` +
      `Fix: give a number of ${unit}, e.g. ${fallback}, or leave it out.`,
  );
}
