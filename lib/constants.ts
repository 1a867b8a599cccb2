/** Every metadata key mcp-reflect writes. Values are namespaced so they never collide with user metadata. */
export const TOOL_METADATA = 'mcp-reflect:tool';
export const TOOL_METHODS_METADATA = 'mcp-reflect:tool-methods';
/** Kinds of decorated methods besides tools; each kind keeps `mcp-reflect:<kind>` and `mcp-reflect:<kind>-methods`. */
export const COMPONENT_KINDS = ['resource', 'resource-template', 'resource-list', 'prompt', 'complete'] as const;
export type ComponentKind = (typeof COMPONENT_KINDS)[number];
export const PARAMS_METADATA = 'mcp-reflect:params';
export const INJECTABLE_METADATA = 'mcp-reflect:injectable';
export const MODULE_METADATA = 'mcp-reflect:module';
export const INJECT_TOKENS_METADATA = 'mcp-reflect:inject-tokens';
export const FIELD_METADATA = 'mcp-reflect:field';
/** Enhancers given with `@UseGuards()`, `@UseInterceptors()`, `@UsePipes()`, `@UseFilters()` (class or method). */
export const GUARDS_METADATA = 'mcp-reflect:guards';
export const INTERCEPTORS_METADATA = 'mcp-reflect:interceptors';
export const PIPES_METADATA = 'mcp-reflect:pipes';
export const FILTERS_METADATA = 'mcp-reflect:filters';
/**
 * The keys NestJS's own `@UseGuards()`, `@UseInterceptors()`, `@UsePipes()`, `@UseFilters()` and
 * `@Injectable({ scope })` write (`@nestjs/common/constants`): read, never written, so that the standalone server
 * refuses them instead of ignoring them.
 */
export const NEST_ENHANCER_KEYS = { guards: '__guards__', interceptors: '__interceptors__', pipes: '__pipes__', filters: '__exceptionFilters__' } as const;
export const NEST_SCOPE_OPTIONS_METADATA = 'scope:options';
/** The exception classes an exception filter handles (`@Catch()`). */
export const CATCH_METADATA = 'mcp-reflect:catch';

/** Metadata keys that TypeScript's `emitDecoratorMetadata` writes. */
export const DESIGN_PARAM_TYPES = 'design:paramtypes';
export const DESIGN_TYPE = 'design:type';
export const DESIGN_RETURN_TYPE = 'design:returntype';

/** The MCP spec's tool name rule (2025-11-25, server/tools#tool-names). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** DI token under which the options given to `McpModule.forRoot()` are provided. */
export const MCP_OPTIONS = Symbol.for('mcp-reflect:options');
/** The options of an `McpModule.forFeature()` import (its namespace). */
export const MCP_FEATURE = Symbol.for('mcp-reflect:feature');

/** DI token of the current request's Context, for request-scoped providers (`@Inject(CONTEXT)`). */
export const CONTEXT = Symbol.for('mcp-reflect:context');

/**
 * Provider tokens of global enhancers with dependency injection, as in NestJS: a module may list several
 * `{ provide: APP_GUARD, useClass: RoleGuard }` providers; each is built by the container in its module.
 */
export const APP_GUARD = Symbol.for('mcp-reflect:APP_GUARD');
export const APP_INTERCEPTOR = Symbol.for('mcp-reflect:APP_INTERCEPTOR');
export const APP_PIPE = Symbol.for('mcp-reflect:APP_PIPE');
export const APP_FILTER = Symbol.for('mcp-reflect:APP_FILTER');
export const APP_MIDDLEWARE = Symbol.for('mcp-reflect:APP_MIDDLEWARE');
/** The tokens above: providers under them may repeat. */
export const MULTI_TOKENS: readonly symbol[] = [APP_GUARD, APP_INTERCEPTOR, APP_PIPE, APP_FILTER, APP_MIDDLEWARE];

/** Where `@Optional()` and `@Global()` are recorded. */
export const OPTIONAL_DEPS_METADATA = 'mcp-reflect:optional-deps';
export const GLOBAL_MODULE_METADATA = 'mcp-reflect:global-module';

/**
 * How long a provider instance lives. DEFAULT: one per application (built at bootstrap). TRANSIENT: one per
 * consumer that injects it. REQUEST: one per MCP request (tool call), and every provider that depends on a
 * REQUEST provider becomes request-scoped too.
 */
export enum Scope {
  DEFAULT = 0,
  TRANSIENT = 1,
  REQUEST = 2,
}

/** Scopes a component needs (`@Scopes()`, class or method), and components that need none (`@Public()`). */
export const SCOPES_METADATA = 'mcp-reflect:scopes';
export const PUBLIC_METADATA = 'mcp-reflect:public';

/** `@UiResource()` methods (MCP Apps): the `ui://` URI each declares, by method. */
export const UI_RESOURCE_METADATA = 'mcp-reflect:ui-resource';
/** MCP Apps (SEP-1865, ext-apps specification 2026-01-26): the extension's identifier and its views' MIME type. */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
