import type { Catalogue } from '../catalogue';
import type { CompletionRegistry } from '../completions';
import type { JsonSchema, ToolAnnotations } from '../interfaces';
import type { CompiledMethod } from '../invocation';
import type { GeneratedTypes } from '../metadata';
import type { PromptRegistry } from '../prompts';
import type { ResourceRegistry } from '../resources';
import type { ToolRegistry } from '../tools';

/** The class and method that declare a component (for an inherited method: the class that is served). */
export interface ComponentOwner {
  readonly class: Function;
  readonly method: string;
}

/** What every inspected tool, resource, template and prompt has. */
export interface InspectedComponent {
  /** The name clients use (`tools/call`, `prompts/get`) or list it under. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** False while it is turned off with `app.tools.disable(name)` (and the like): not listed, not served. */
  readonly enabled: boolean;
  readonly owner: ComponentOwner;
  /** Its `tags` option (the ones `includeTags` / `excludeTags` filter on); empty without. */
  readonly tags: readonly string[];
  /** The OAuth scopes a caller's token must grant (`@Scopes()` of class and method); empty: none. */
  readonly scopes: readonly string[];
}

/** A tool: its schemas as `tools/list` shows them. */
export interface InspectedTool extends InspectedComponent {
  readonly kind: 'tool';
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  /** How it runs as a task (`@Tool({ task })`); undefined: never as a task. */
  readonly task?: InspectedTask;
}

/** `@Tool({ task })`, with its defaults filled in. */
export interface InspectedTask {
  readonly support: 'optional' | 'required';
  readonly start: 'immediately' | 'on-demand';
  readonly ttlMs?: number;
  readonly pollIntervalMs?: number;
  /** Whether a run cut short on a durable queue is run again (`@Tool({ task: { retry } })`, default true). */
  readonly retry: boolean;
}

/** A static resource (`@Resource()`). */
export interface InspectedResource extends InspectedComponent {
  readonly kind: 'resource';
  readonly uri: string;
  readonly mimeType?: string;
}

/** A resource template (`@ResourceTemplate()`). */
export interface InspectedResourceTemplate extends InspectedComponent {
  readonly kind: 'resource-template';
  readonly uriTemplate: string;
  readonly mimeType?: string;
  /** The schema the URI's variables are validated with (strings coerced to the declared types). */
  readonly inputSchema: JsonSchema;
}

/** A prompt (`@Prompt()`). */
export interface InspectedPrompt extends InspectedComponent {
  readonly kind: 'prompt';
  /** As `prompts/list` shows them. */
  readonly arguments: readonly { readonly name: string; readonly description?: string; readonly required: boolean }[];
  /** The schema the arguments are validated with (strings coerced to the declared types). */
  readonly inputSchema: JsonSchema;
}

/** A completer of one prompt argument or template variable: a `@Complete()` method or a static `complete` list. */
export interface InspectedCompletion {
  readonly kind: 'completion';
  /** The prompt it completes an argument of (or else `resourceTemplate`). */
  readonly prompt?: string;
  /** The URI template it completes a variable of. */
  readonly resourceTemplate?: string;
  /** The argument or variable. */
  readonly argument: string;
  /** The `@Complete()` method; undefined for a static list. */
  readonly owner?: ComponentOwner;
  /** The static list (`@Prompt({ complete })`, `@ResourceTemplate({ complete })`). */
  readonly values?: readonly string[];
  /** The scopes the `@Complete()` method requires; empty: none. */
  readonly scopes: readonly string[];
}

/**
 * What an application serves, as `app.inspect()` describes it: every component with its schemas, its owner,
 * tags, scopes and task settings. Plain frozen data, a snapshot taken when `inspect()` is called.
 */
export interface McpInspection {
  readonly server: { readonly name: string; readonly version: string; readonly title?: string };
  /** True when the application loaded the types `mcp-reflect generate` wrote (docs/types.md). */
  readonly generatedTypes: boolean;
  readonly tools: readonly InspectedTool[];
  readonly resources: readonly InspectedResource[];
  readonly resourceTemplates: readonly InspectedResourceTemplate[];
  readonly prompts: readonly InspectedPrompt[];
  readonly completions: readonly InspectedCompletion[];
}

/** @internal What the inspection reads: the application's own registries, server info and types. */
export interface InspectionSources {
  readonly server: McpInspection['server'];
  readonly types: GeneratedTypes;
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;
  readonly completions: CompletionRegistry;
}

/** @internal Describes the application as it is now (disabled components included, with `enabled: false`). */
export function inspectApplication(sources: InspectionSources): McpInspection {
  const { tools, resources, prompts, completions } = sources;
  return frozen({
    server: pruned(sources.server),
    generatedTypes: sources.types.loaded,
    tools: each(tools, (tool, enabled) => ({
      kind: 'tool' as const,
      ...common(tool.descriptor, enabled, tool, tool.tags, tool.pipeline.requiredScopes),
      inputSchema: tool.descriptor.inputSchema,
      ...pruned({ outputSchema: tool.descriptor.outputSchema, annotations: tool.descriptor.annotations, task: tool.task }),
    })),
    resources: each(resources.resources, (resource, enabled) => ({
      kind: 'resource' as const,
      ...common(resource.descriptor, enabled, resource.compiled, resource.tags, resource.pipeline.requiredScopes),
      uri: resource.uri,
      ...pruned({ mimeType: resource.descriptor.mimeType }),
    })),
    resourceTemplates: each(resources.templates, (template, enabled) => ({
      kind: 'resource-template' as const,
      ...common(template.descriptor, enabled, template.compiled, template.tags, template.pipeline.requiredScopes),
      uriTemplate: template.uriTemplate,
      ...pruned({ mimeType: template.descriptor.mimeType }),
      inputSchema: template.compiled.inputSchema,
    })),
    prompts: each(prompts, (prompt, enabled) => ({
      kind: 'prompt' as const,
      ...common(prompt.descriptor, enabled, prompt.compiled, prompt.tags, prompt.pipeline.requiredScopes),
      arguments: prompt.descriptor.arguments,
      inputSchema: prompt.compiled.inputSchema,
    })),
    completions: completions.described().map(
      (source): InspectedCompletion => ({
        kind: 'completion',
        ...(source.ref.type === 'ref/prompt' ? { prompt: source.ref.name } : { resourceTemplate: source.ref.uri }),
        argument: source.argument,
        ...(source.owner ? { owner: { class: source.owner.target, method: source.owner.method } } : {}),
        ...(source.values ? { values: source.values } : {}),
        scopes: source.requiredScopes ?? [],
      }),
    ),
  });
}

function each<T extends { name: string }, R>(catalogue: Catalogue<T, unknown>, describe: (item: T, enabled: boolean) => R): R[] {
  return catalogue.names().map((name) => describe(catalogue.find(name)!, catalogue.isEnabled(name)));
}

function common(
  descriptor: { name: string; title?: string; description?: string },
  enabled: boolean,
  compiled: Pick<CompiledMethod, 'target' | 'methodName'>,
  tags: readonly string[] | undefined,
  scopes: readonly string[] | undefined,
) {
  return {
    name: descriptor.name,
    ...pruned({ title: descriptor.title, description: descriptor.description }),
    enabled,
    owner: { class: compiled.target, method: compiled.methodName },
    tags: tags ?? [],
    scopes: scopes ?? [],
  };
}

/** The object without its undefined fields. */
function pruned<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * A deep copy, frozen: the registries keep sharing their schemas with the lists they serve (which must stay
 * unfrozen, see Catalogue.list()), and no caller can change what the server serves through a description.
 * Classes (owners) are kept as they are.
 */
function frozen<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? value.map(frozen) : {};
  if (!Array.isArray(value)) {
    // defineProperty: a schema property named `__proto__` stays a property.
    for (const [key, entry] of Object.entries(value)) {
      Object.defineProperty(copy, key, { value: typeof entry === 'function' ? entry : frozen(entry), enumerable: true, writable: true, configurable: true });
    }
  }
  return Object.freeze(copy) as T;
}
