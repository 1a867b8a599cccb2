import type { JsonSchema } from './json-schema.interface';
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
  /** Raw JSON Schema for the input, used verbatim; `@Args()` then receives the validated plain object. */
  inputSchema?: JsonSchema;
  /**
   * Milliseconds a call may take: at the deadline the Context's signal aborts and the caller gets an isError
   * result, even if the method ignores the signal.
   */
  timeout?: number;
  /** Labels for `forRoot({ includeTags, excludeTags })`. */
  tags?: string[];
}
