import type { Context } from '../context';

/**
 * What clients see of one tool argument instead of what the method declares (docs/composition.md#transforms).
 * A hidden argument leaves the advertised schema (and its `required`) and is filled before validation, so the
 * method's own schema still checks it; a renamed one is advertised under the new name and mapped back.
 */
export interface ArgTransform {
  /** The name clients send it under. */
  readonly name?: string;
  readonly description?: string;
  /** Advertised as the argument's `default` and used when the client sends none (the argument is then optional). */
  readonly default?: unknown;
  /**
   * Not advertised; always this value (`{ value }`, checked against the argument's schema at bootstrap) or
   * what `fn` returns for the call's Context (`ctx.auth.subject`, say). What a client sends under it is ignored.
   */
  readonly hide?: { readonly value: unknown } | { readonly fn: (ctx: Context) => unknown };
}

/** What clients see of one prompt, resource or resource template instead of what it declares. */
export interface ComponentTransform {
  /** The name it is served under (a prompt's name, a resource's or template's display name). */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** Added to its own tags (what `includeTags` / `excludeTags` read). */
  readonly tags?: readonly string[];
  /** `false`: registered but disabled, until `app.tools.enable(name)` (or the kind's control) turns it on. */
  readonly enabled?: boolean;
  /** Merged over its `_meta`. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** What clients see of one tool instead of what it declares: its name, texts, tags, state, `_meta` and arguments. */
export interface ToolTransform extends ComponentTransform {
  /** Per declared argument name (after a `forFeature()` transform: per the name it gave). */
  readonly args?: Readonly<Record<string, ArgTransform>>;
}

/**
 * Transforms of components, per kind and name. In `McpModule.forRoot({ transforms })` the names are the served
 * ones (namespaces applied); in `McpModule.forFeature({ transforms })`, `app.tools.add(instance, { transforms })`
 * and `McpModule.proxy({ transforms })` they are the declared ones (the remote's, for a proxy). A name that
 * names nothing fails the bootstrap (`UNKNOWN_TRANSFORM_TARGET`).
 *
 * @example
 * McpModule.forRoot({
 *   name: 'gateway',
 *   version: '1.0.0',
 *   transforms: { tools: { eu_forecast: { name: 'forecast', args: { units: { hide: { value: 'metric' } } } } } },
 * })
 */
export interface ComponentTransforms {
  readonly tools?: Readonly<Record<string, ToolTransform>>;
  readonly prompts?: Readonly<Record<string, ComponentTransform>>;
  /** Resources and resource templates, by name. */
  readonly resources?: Readonly<Record<string, ComponentTransform>>;
}
