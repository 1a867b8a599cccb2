import { templateVariables } from '../catalogue';
import type { Context } from '../context';
import type { ProvidedComponents } from '../interfaces';
import type { ParamMetadata } from '../metadata';

/** The kinds of component a provider serves, as the explorer files them. */
export type ProvidedKind = 'tool' | 'resource' | 'resource-template' | 'prompt' | 'complete';

/**
 * One component of a provider, as data in place of a decorated method: the options a decorator would have
 * written, the parameters its parameter decorators would have (with their types), and the function that serves
 * it. The parser reads these as it reads a decorated method's metadata, so both compile the same way.
 */
export interface ProvidedMethod {
  readonly kind: ProvidedKind;
  /** Unique in its provider: `tool:search`, `resource:config://app`, `template:users://{id}` … (messages name it). */
  readonly key: string;
  readonly options: object;
  readonly handler: (...args: any[]) => unknown;
  /** By position, as the decorators write them (a position without one takes the kind's implicit binding). */
  readonly params: readonly (ParamMetadata | undefined)[];
  readonly types: readonly unknown[];
  /** `scopes` of the descriptor (as `@Scopes()`), checked as scope-tokens by the host. */
  readonly requiredScopes?: readonly string[];
}

/** Every component of one provider, and what messages and `ExecutionContext.getClass()` show it as. */
export interface ProvidedMethods {
  /** The provider's identity where a class would be (messages: `McpProxy(docs).tool:search`; `getClass()`). */
  readonly target: Function;
  /** Where the schemas come from, when they are known only at run time (interpreted where code cannot be generated). */
  readonly origin?: string;
  readonly methods: readonly ProvidedMethod[];
  get(key: string): ProvidedMethod | undefined;
}

/**
 * A provider's components as the methods the application compiles (lib/host explores them like decorated ones).
 * `name` names the provider where a class name would (`McpProxy(docs)`); `origin`: see {@link ProvidedMethods}.
 */
export function providedMethods(components: ProvidedComponents, name: string, origin?: string): ProvidedMethods {
  const methods = new Map<string, ProvidedMethod>();
  const add = (method: Omit<ProvidedMethod, 'key'> & { key: string }, scopes: readonly string[] | undefined) => {
    let key = method.key;
    for (let i = 2; methods.has(key); i++) key = `${method.key}#${i}`;
    methods.set(key, { ...method, key, ...(scopes !== undefined ? { requiredScopes: scopes } : {}) });
  };
  const ctx = (index: number): ParamMetadata => ({ kind: 'ctx', index });
  const strings = (names: readonly { name: string; description?: string; required?: boolean }[]): ParamMetadata[] =>
    names.map((a, index) => ({ kind: 'param', index, name: a.name, options: { type: String, ...(a.required === false ? { optional: true } : {}), ...(a.description !== undefined ? { description: a.description } : {}) } }));

  for (const { call, scopes, ...options } of components.tools ?? []) {
    const key = `tool:${options.name}`;
    // Without a schema it takes no arguments, as a method without parameters does.
    if (options.inputSchema === undefined && options.parameters === undefined) add({ kind: 'tool', key, options, handler: (context) => call({}, context), params: [ctx(0)], types: [Object] }, scopes);
    else add({ kind: 'tool', key, options, handler: (args, context) => call(args ?? {}, context), params: [{ kind: 'args', index: 0 }, ctx(1)], types: [Object, Object] }, scopes);
  }
  for (const { read, scopes, ...options } of components.resources ?? []) {
    add({ kind: 'resource', key: `resource:${options.uri}`, options, handler: (context) => read(context), params: [ctx(0)], types: [Object] }, scopes);
  }
  for (const { read, scopes, ...options } of components.templates ?? []) {
    const variables = templateVariables(options.uriTemplate);
    const handler = (...values: unknown[]) => read(Object.fromEntries(variables.map((name, i) => [name, String(values[i] ?? '')])), values[variables.length] as Context);
    const params = [...strings(variables.map((name) => ({ name }))), ctx(variables.length)];
    add({ kind: 'resource-template', key: `template:${options.uriTemplate}`, options, handler, params, types: [...variables.map(() => String), Object] }, scopes);
  }
  for (const { get, scopes, arguments: declared = [], ...options } of components.prompts ?? []) {
    const handler = (...values: unknown[]) => {
      const args: Record<string, string> = {};
      declared.forEach((a, i) => values[i] !== undefined && (args[a.name] = String(values[i])));
      return get(args, values[declared.length] as Context);
    };
    const params = [...strings(declared.map((a) => ({ ...a, required: a.required === true }))), ctx(declared.length)];
    add({ kind: 'prompt', key: `prompt:${options.name}`, options, handler, params, types: [...declared.map(() => String), Object] }, scopes);
  }
  for (const { complete, ...options } of components.completers ?? []) {
    const of = 'prompt' in options ? options.prompt : options.resourceTemplate;
    // The value and the context are the completer's implicit parameters (as for an undecorated `@Complete()` method).
    const handler = (value: unknown, context: unknown, ctx: unknown) => complete(String(value ?? ''), context as never, ctx as Context);
    add({ kind: 'complete', key: `complete:${of}#${options.argument}`, options, handler, params: [undefined, undefined, ctx(2)], types: [String, Object, Object] }, undefined);
  }
  const target = { [name]: function () {} }[name]!;
  return { target, ...(origin !== undefined ? { origin } : {}), methods: [...methods.values()], get: (key) => methods.get(key) };
}
