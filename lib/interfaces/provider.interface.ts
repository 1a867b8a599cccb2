import type { Context } from '../context';
import type { ResourceOptions, ResourceTemplateOptions, PromptOptions, CompleteOptions } from './component-options.interface';
import type { JsonSchema } from './json-schema.interface';
import type { ToolOptions } from './tool-options.interface';
import type { SkillFileContents } from './skills-options.interface';

/**
 * A source of components other than a decorated class: a proxied MCP server, an OpenAPI document, or one of
 * yours (docs/composition.md#providers). It describes each component as data — a descriptor and the function
 * that serves it — and the application compiles them into the same registries and pipelines as decorated
 * methods: transforms, namespaces, tag filters, middleware, guards, scopes, interceptors, filters, validation
 * against the advertised schema, timeouts and tasks apply whatever the source.
 *
 * @example
 * const weather: McpProvider = {
 *   source: 'the weather service',
 *   components: () => ({
 *     tools: [{
 *       name: 'forecast',
 *       inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *       call: async ({ city }) => `Sunny in ${city}`,
 *     }],
 *   }),
 * };
 * app.providers.add(weather, { namespace: 'weather' });
 */
export interface McpProvider {
  /** Names where the components come from, in messages: `the weather service`, `the remote MCP server 'docs' (…)`. */
  readonly source: string;
  /**
   * The schemas are known only at run time (a remote's catalogue, a document read at start): they are validated
   * without code generation where the runtime forbids it (Workers), and an invalid one is reported as the
   * source's. Default false: schemas are compiled like a decorator's.
   */
  readonly runtimeSchemas?: boolean;
  /** What the provider serves now. */
  components(): ProvidedComponents;
  /**
   * Calls `changed` whenever `components()` would answer differently (a remote's `list_changed`): the application
   * replaces what the provider served, and clients hear one `list_changed` per kind. Returns how to stop.
   */
  watch?(changed: () => void): () => void;
}

/** What a provider serves, by kind. */
export interface ProvidedComponents {
  readonly tools?: readonly ProvidedTool[];
  readonly resources?: readonly ProvidedResource[];
  readonly templates?: readonly ProvidedTemplate[];
  readonly prompts?: readonly ProvidedPrompt[];
  readonly completers?: readonly ProvidedCompleter[];
  /**
   * Skills built in code (SEP-2640, docs/skills.md#skills-from-a-provider): served beside `forRoot({ skills })`'s,
   * under the provider's namespace as their prefix, once their files are hashed (a moment after the provider is added;
   * clients hear `resources/list_changed`).
   */
  readonly skills?: readonly ProvidedSkill[];
}

/** A skill built in code: its path (`pdf-processing`; the last segment is its frontmatter `name`) and its files. */
export interface ProvidedSkill {
  /** Where it is served under the provider's namespace: `onboarding` → `skill://<namespace>/onboarding/SKILL.md`. */
  readonly path: string;
  /** Paths under the skill's folder → content; `SKILL.md` among them. */
  readonly files: SkillFileContents;
  /** The scopes the caller's token must grant to see and read it (as `@Scopes()`). */
  readonly scopes?: readonly string[];
}

/** A tool: its descriptor (as `@Tool()` takes it, with its input schema) and `call`, given the validated arguments. */
export interface ProvidedTool extends Omit<ToolOptions, 'name' | 'inputSchema' | 'output'> {
  /** The scopes the caller's token must grant to see and use it (as `@Scopes()`). */
  readonly scopes?: readonly string[];
  readonly name: string;
  /**
   * The JSON Schema of its arguments (an object schema): advertised as is, and what arguments are validated
   * against. Or give `parameters` a Standard Schema (zod, valibot, arktype) instead, as `@Tool({ parameters })`
   * takes it: its JSON Schema is advertised, its library validates and parses the arguments `call` receives.
   */
  readonly inputSchema?: JsonSchema;
  /** The validated arguments (the mapped ones when a transform renamed or hid some) and the call's Context. */
  call(args: Record<string, unknown>, ctx: Context): unknown;
}

/** A resource at a fixed URI, and `read`. */
export interface ProvidedResource extends Omit<ResourceOptions, 'name'> {
  /** The scopes the caller's token must grant to see and use it (as `@Scopes()`). */
  readonly scopes?: readonly string[];
  readonly uri: string;
  readonly name: string;
  read(ctx: Context): unknown;
}

/** A resource template (RFC 6570), and `read`, given the URI's variables. */
export interface ProvidedTemplate extends Omit<ResourceTemplateOptions, 'name'> {
  /** The scopes the caller's token must grant to see and use it (as `@Scopes()`). */
  readonly scopes?: readonly string[];
  readonly uriTemplate: string;
  readonly name: string;
  read(variables: Record<string, string>, ctx: Context): unknown;
}

/** One argument of a provided prompt. */
export interface ProvidedPromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
}

/** A prompt, its arguments, and `get`, given the arguments the client sent. */
export interface ProvidedPrompt extends Omit<PromptOptions, 'name'> {
  /** The scopes the caller's token must grant to see and use it (as `@Scopes()`). */
  readonly scopes?: readonly string[];
  readonly name: string;
  readonly arguments?: readonly ProvidedPromptArgument[];
  get(args: Record<string, string>, ctx: Context): unknown;
}

/** Completion of a prompt's argument or a template's variable: the values for what the client typed so far. */
export type ProvidedCompleter = CompleteOptions & {
  complete(value: string, context: { arguments?: Record<string, string> } | undefined, ctx: Context): unknown;
};
