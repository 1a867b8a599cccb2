import type { JsonSchema } from './json-schema.interface';
import type { StandardSchema } from './standard-schema.interface';
import type { TypeHint } from './type-hint.interface';

/** Hints about a tool's behaviour (MCP `ToolAnnotations`); clients must treat them as untrusted. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** An icon a client may show for the tool (MCP `Icon`). */
export interface ToolIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Options of `@Tool()`. Everything is optional: the name defaults to the method name. */
export interface ToolOptions {
  /** Tool name on the wire; must match `[A-Za-z0-9_.-]{1,128}`. Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  annotations?: ToolAnnotations;
  icons?: ToolIcon[];
  _meta?: Record<string, unknown>;
  /** Output schema source: a DTO class, `String`/`Number`/`Boolean`, or `[ItemType]`. Primitives and arrays are wrapped as `{ result }`. */
  output?: TypeHint;
  /**
   * Raw JSON Schema for the input, used verbatim (its `$ref`s inlined where clients see it, unless
   * `McpModule.forRoot({ schemaRefs: 'keep' })`); `@Args()` then receives the validated plain object.
   */
  inputSchema?: JsonSchema;
  /**
   * The tool's arguments as one schema (docs/tools.md#standard-schema-zod-valibot-arktype): a Standard Schema
   * (zod 4.2+, arktype, valibot through `@valibot/to-json-schema`) or a plain JSON Schema. A Standard Schema is
   * advertised as its JSON Schema (input side) and validates the call itself; the method receives the parsed
   * output (defaults applied, transforms run) through `@Args()` or an undecorated first parameter.
   */
  parameters?: StandardSchema | JsonSchema;
  /**
   * Raw JSON Schema (an object schema) for the structured output, used verbatim instead of `output`, or a Standard
   * Schema (advertised as its JSON Schema, output side, and checked by its library): checked against what the
   * tool returns (a `ToolResult` with `structuredContent`, or an object).
   */
  outputSchema?: JsonSchema | StandardSchema;
  /**
   * Milliseconds a call may take: at the deadline the Context's signal aborts and the caller gets an isError
   * result, even if the method ignores the signal.
   */
  timeout?: number;
  /** Labels for `forRoot({ includeTags, excludeTags })`. */
  tags?: string[];
  /**
   * Task support (docs/tasks.md): `'optional'` lets a client run the call as a task, `'required'` makes it
   * one always. A task call answers at once with a task the client polls (`tasks/get`) while the method keeps
   * running with its Context. Unset: the tool is never a task.
   */
  task?: ToolTaskSupport | ToolTaskOptions;
  /**
   * MCP Apps: the `ui://` view (a `@UiResource()`) a host renders this tool's results in, as its URI or with
   * visibility. Sent as `_meta.ui` (and the older `_meta["ui/resourceUri"]`); clients without the extension
   * still get the tool's text content.
   */
  ui?: string | ToolUiOptions;
}

/** Who may call a tool in MCP Apps: the model (agent), the app (its view), or both (the default). */
export type ToolVisibility = 'model' | 'app';

/** `@Tool({ ui })` in full: the view, and who may call the tool (`_meta.ui.visibility`). */
export interface ToolUiOptions {
  resourceUri: string;
  /** Default (omitted): `['model', 'app']`. `['app']`: hosts hide the tool from the model; only its view calls it. */
  visibility?: ToolVisibility[];
}

/** Origins a view needs (MCP Apps `McpUiResourceCsp`); hosts allow nothing that is not declared. */
export interface UiResourceCsp {
  /** fetch/XHR/WebSocket origins (CSP `connect-src`). */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts, media (CSP `script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  resourceDomains?: string[];
  /** Nested iframes (CSP `frame-src`). */
  frameDomains?: string[];
  /** Base URIs (CSP `base-uri`). */
  baseUriDomains?: string[];
}

/** Browser permissions a view asks for (MCP Apps `McpUiResourcePermissions`); hosts may grant them. */
export interface UiResourcePermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** Options of `@UiResource(uri, options)`: the resource's listing fields and its `_meta.ui`. */
export interface UiResourceOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  icons?: ToolIcon[];
  /** Content Security Policy domains (`_meta.ui.csp`). */
  csp?: UiResourceCsp;
  /** Browser permissions (`_meta.ui.permissions`). */
  permissions?: UiResourcePermissions;
  /** A dedicated sandbox origin, in the format the host documents (`_meta.ui.domain`). */
  domain?: string;
  /** Whether the host should draw a border and background around the view (`_meta.ui.prefersBorder`). */
  prefersBorder?: boolean;
  /** Other `_meta` of the resource; `ui` is built from the options above. */
  _meta?: Record<string, unknown>;
  tags?: string[];
}

/** How a tool takes part in tasks: `'optional'` (the client may ask for a task) or `'required'`. */
export type ToolTaskSupport = 'optional' | 'required';

/** Task support with the task's timings (`@Tool({ task: { support: 'optional', ttlMs: 60_000 } })`). */
export interface ToolTaskOptions {
  support: ToolTaskSupport;
  /** How long the task is kept after it was created (ms); default: the server's `tasks.defaultTtlMs`. */
  ttlMs?: number;
  /** How often clients should poll (ms); default: the server's `tasks.pollIntervalMs`. */
  pollIntervalMs?: number;
  /**
   * On a durable queue (`tasks.queue`): whether a run cut short (its process died) is run again by another worker
   * (default true: at least once). false: the task fails with a status that says so instead.
   */
  retry?: boolean;
  /**
   * `'immediately'` (default): the call becomes a task as it starts. `'on-demand'`: the call runs as an ordinary
   * call (it may ask for input, round by round) until the method calls `await ctx.startTask()`; then the client
   * gets the task and the method goes on as it. A method that returns first answers with its result.
   */
  start?: 'immediately' | 'on-demand';
}
