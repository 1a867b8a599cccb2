import type { ToolAnnotations, ToolIcon } from './tool-options.interface';

/** Annotations of resources and resource contents (MCP `Annotations`). */
export interface ResourceAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

/**
 * How long a client may reuse a result, and whether a shared cache may (SEP-2549, protocol 2026-07-28: the
 * `ttlMs` / `cacheScope` of cacheable results). Unset fields fall back to the server's, then to 0 / 'private'.
 */
export interface CacheHint {
  /** Milliseconds the result stays fresh; 0: do not reuse it without asking again. */
  ttlMs?: number;
  /** 'public': the same for every user, a shared cache may keep it; 'private': for this user only. */
  cacheScope?: 'public' | 'private';
}

/** Options of `@Resource(uri, options)`. */
export interface ResourceOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  /** Defaults by return value: text/plain for strings, application/octet-stream for bytes, application/json for objects. */
  mimeType?: string;
  annotations?: ResourceAnnotations;
  icons?: ToolIcon[];
  size?: number;
  _meta?: Record<string, unknown>;
  /** Labels for `forRoot({ includeTags, excludeTags })`. */
  tags?: string[];
  /** The cache hint of its `resources/read` results on 2026-07-28 (default: forRoot's `cacheHints['resources/read']`). */
  cacheHint?: CacheHint;
}

/** Options of `@ResourceTemplate(uriTemplate, options)`. */
export interface ResourceTemplateOptions extends Omit<ResourceOptions, 'size'> {
  /** Static completion values per template variable, filtered by the typed prefix. */
  complete?: Record<string, readonly string[]>;
}

/** Options of `@Prompt(options)`. */
export interface PromptOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  icons?: ToolIcon[];
  _meta?: Record<string, unknown>;
  /** Static completion values per argument, filtered by the typed prefix. */
  complete?: Record<string, readonly string[]>;
  tags?: string[];
}

/** Target of `@Complete()`: an argument of a prompt, or a variable of a resource template. */
export type CompleteOptions =
  | { prompt: string; argument: string }
  | { resourceTemplate: string; argument: string };

export type { ToolAnnotations };
