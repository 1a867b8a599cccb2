import type { ModuleImport } from '../interfaces';
import type { CanActivate, ComponentTransforms, DeclaredKinds, SchemaRefs, GeneratedMetadata, EnhancerRef, ExceptionFilter, McpInterceptor, McpMiddleware, PipeTransform } from '../interfaces';
import type { CacheHint } from '../interfaces';
import type { TasksOptions } from '../tasks';
import type { StateOptions } from '../state';
import type { ServerLogger } from '../interfaces';
import type { PrecompiledValidators } from '../interfaces';
import type { McpSkillsOptions } from '../interfaces';

/** The cacheable operations of the 2026-07-28 revision, each with its cache hint (`McpModule.forRoot({ cacheHints })`). */
export type CacheHints = Partial<Record<'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read', CacheHint>>;

/** Options of `McpModule.forRoot()`. */
export interface McpModuleOptions {
  /** Server name sent to clients in `serverInfo`. */
  name: string;
  version: string;
  /**
   * The modules this server serves (and the modules they import), which it imports itself. Unset: every module
   * of the application. An application with several servers (`McpModule.forRoot()` more than once, each with its
   * own options, guards and auth) names them on each: see docs/composition.md#several-servers-in-one-application.
   */
  modules?: readonly ModuleImport[];
  title?: string;
  /** Instructions sent to clients at initialization (how to use this server). */
  instructions?: string;
  /** Hide the message of unexpected tool errors from clients (default true); the full error is logged. */
  maskErrorDetails?: boolean;
  /**
   * Validate arguments strictly: no coercion, unknown keys rejected (default false: lenient, "10" → 10,
   * JSON strings parsed for object/array arguments, unknown keys dropped).
   */
  strictInputValidation?: boolean;
  /** Where server-side errors go (default: stderr; never stdout, which stdio reserves for the protocol). */
  logger?: ServerLogger;
  /** Only expose components with at least one of these tags (`@Tool({ tags })`, `@Resource(uri, { tags })`, …). */
  includeTags?: string[];
  /** Never expose components with any of these tags (wins over includeTags). */
  excludeTags?: string[];
  /**
   * HMAC secret (at least 32 bytes) sealing the state of multi-round-trip calls (elicitation, sampling,
   * roots). Default: random per process; set it when several instances serve one client (scale-out).
   */
  requestStateSecret?: string;
  /** Items per page of tools/list, resources/list, resources/templates/list and prompts/list (default: all in one page). */
  pageSize?: number;
  /**
   * Renames, rewords, retags, disables and reshapes (arguments renamed, hidden, defaulted) components, keyed by
   * their served names, namespaces included; applied to every registration (docs/composition.md#transforms).
   */
  transforms?: ComponentTransforms;
  /**
   * For large catalogues: `tools/list` shows only `search_tools` (ranks the tools the caller may see by name and
   * description) and `call_tool` (runs one by name), plus the `always` tools; a client that wants the full list
   * sends `_meta: { [FULL_TOOL_LIST]: true }`, and every tool can still be called directly (docs/composition.md#tool-search).
   */
  toolSearch?: boolean | ToolSearchOptions;
  /**
   * `$ref`s in advertised tool schemas. Default: every local `$ref` inlined (recursive types `recursionDepth` times,
   * default 3, then `{}`), so clients need no resolver; `'keep'`: `$defs` and `$ref` as built
   * (docs/composition.md#schemas-without-ref).
   */
  schemaRefs?: SchemaRefs;
  /**
   * Cache hints of the cacheable results on 2026-07-28 (SEP-2549: `ttlMs`, `cacheScope`), per operation. Unset:
   * `{ ttlMs: 0, cacheScope: 'private' }` (do not reuse). A resource's own `@Resource({ cacheHint })` wins for
   * its reads.
   *
   * @example
   * McpModule.forRoot({ name: 'docs', version: '1.0.0', cacheHints: { 'tools/list': { ttlMs: 300_000, cacheScope: 'public' } } })
   */
  cacheHints?: CacheHints;
  /**
   * Skills (the `io.modelcontextprotocol/skills` extension, SEP-2640): a folder of skill folders, skills built in
   * code, or several such sources. Served by `skills/list`, `skills/get`, `skill://` resources with their digests
   * and `resources/directory/read`, through the same visibility, scopes and guards as resources (docs/skills.md).
   *
   * @example
   * McpModule.forRoot({ name: 'docs', version: '1.0.0', skills: { directory: './skills' } })
   */
  skills?: McpSkillsOptions | readonly McpSkillsOptions[];
  /**
   * Kinds to declare even while the application has none of them. By default a session's server declares
   * `tools`, `resources` and `prompts` (and `completions`, with prompts or resource templates) only when the
   * application has at least one such component as the session opens; declare a kind here when its first
   * component is added at runtime (`app.resources.add(...)`) and sessions already open must see it.
   */
  capabilities?: DeclaredKinds;
  /**
   * Most resources one session may subscribe to (`resources/subscribe`); one more is refused with -32602.
   * Default 100.
   */
  maxSubscriptionsPerSession?: number;
  /**
   * Milliseconds a component call (tool, resource, template, prompt, completion) may take unless it sets its
   * own (`@Tool({ timeout })`): then it is answered with `<Kind> '<name>' timed out after N ms` and its
   * Context's signal aborts. Bounds what a call whose client went away can hold (an HTTP concurrency slot).
   * Default 300 000 (5 minutes); 0 turns it off.
   */
  callTimeout?: number;
  /**
   * Middleware around every MCP request, lists included (classes are built by the container in the root
   * module; the first is the outermost). Also: providers under the token `APP_MIDDLEWARE`.
   */
  middleware?: EnhancerRef<McpMiddleware>[];
  /** Guards of every component, before class and method guards. Also: providers under `APP_GUARD`. */
  guards?: EnhancerRef<CanActivate>[];
  /** Interceptors of every component, outermost. Also: providers under `APP_INTERCEPTOR`. */
  interceptors?: EnhancerRef<McpInterceptor>[];
  /** Pipes of every argument parameter, first. Also: providers under `APP_PIPE`. */
  pipes?: EnhancerRef<PipeTransform>[];
  /**
   * How a call that a guard denies (canActivate returned false) is answered. `'hide'` (default): as if the
   * component did not exist (tools: -32602 `Unknown tool`), the way lists leave it out. `'refuse'`: with an
   * access-denied error (tools: an `isError` result; resources, prompts, completions: JSON-RPC -32603).
   */
  guardDenial?: 'hide' | 'refuse';
  /**
   * The types `mcp-reflect generate` wrote (its module's `metadata` export): parameter and DTO schemas from
   * the full TypeScript types and JSDoc, and builds without decorator metadata. See docs/types.md.
   */
  metadata?: GeneratedMetadata;
  /**
   * The validators `mcp-reflect validators` compiled ahead of time: none is compiled at start, and the
   * application runs where code generation is not allowed (Cloudflare Workers). See docs/runtimes.md.
   */
  validators?: PrecompiledValidators;
  /**
   * When argument and output validators are compiled: `'atStart'` (default), or `'onFirstUse'` — each by the first
   * call that needs it, so the bootstrap compiles none (a test suite that starts many applications, a server with
   * many tools few calls use). A schema with hand-written parts is still checked against its meta-schema at
   * bootstrap; what only compilation finds (an unknown `format`) then fails the first call instead of the
   * bootstrap. Ignored with `validators` (nothing is compiled). See docs/validation.md.
   */
  compileValidators?: 'atStart' | 'onFirstUse';
  /** Exception filters tried after method and class filters. Also: providers under `APP_FILTER`. */
  filters?: EnhancerRef<ExceptionFilter>[];
  /**
   * Tasks (`@Tool({ task })`, docs/tasks.md): the store (default: in memory, bounded), the default TTL, the
   * longest TTL a client may ask for, the poll interval, and the `tasks/list` page size.
   */
  tasks?: TasksOptions;
  /** `ctx.state` (docs/state.md): the store (default: in memory, bounded per caller), the default and longest TTL. */
  state?: StateOptions;
  /**
   * Bootstrap warnings, each on by default and sent to `logger`. `unprovidedComponents`: when the application
   * starts serving (`app.listen()`) and in the CLI's `inspect` and `call`, name each class with `@Tool()`,
   * `@Resource()`, `@Prompt()`, … methods that no module provides (false: silent).
   */
  warnings?: McpWarningOptions;
}

/** `McpModule.forRoot({ toolSearch: { … } })`. */
export interface ToolSearchOptions {
  /** Most tools one `search_tools` call returns (default 10, at most 100). */
  maxResults?: number;
  /** Served names of tools `tools/list` shows beside the search tools (when they exist and the caller may see them). */
  always?: readonly string[];
}

/** The `warnings` option of `McpModule.forRoot()`: one switch per warning (true or absent: on). */
export interface McpWarningOptions {
  /** A class with component decorators that no module of the application provides (default true). */
  unprovidedComponents?: boolean;
  /**
   * A DTO property with an initialiser but no decorator (so not in the schema; without generated types it is
   * the only kind of undecorated property visible at run time). Default true (warn); `'error'` stops the bootstrap.
   */
  undecoratedProperties?: boolean | 'error';
  /**
   * An unnamed `@Param()` whose name, read from the compiled code with no generated metadata loaded, looks given
   * by a bundler (`url2` for `url`: docs/runtimes.md#bundles-and-parameter-names). Default true (warn); `'error'`
   * stops the bootstrap (for bundles built in CI).
   */
  renamedParameters?: boolean | 'error';
}
