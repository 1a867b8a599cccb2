import type { RequestChannel } from '../context';
import { BootstrapError, BootstrapErrorCode, RequestError, RpcCode } from '../errors';
import type { CompleteOptions } from '../interfaces';
import { compileMethod, requestFailure, type CallPolicy } from '../invocation';
import type { ParamMetadata } from '../metadata';
import { Pipeline, type ComponentRecord, type PipelineServices } from '../pipeline';
import type { SchemaCompiler } from '../validation';

/** What the client is completing: an argument of a prompt, or a variable of a resource template. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** The other arguments the user already filled in (`context.arguments` of `completion/complete`). */
export interface CompletionContext {
  arguments: Record<string, string>;
}

type Completer = (value: string, context: CompletionContext, open: () => RequestChannel) => CompletionResult | Promise<CompletionResult>;

/** What one completer completes and where it comes from, for inspection (`app.inspect().completions`). */
export interface CompleterSource {
  readonly ref: CompletionRef;
  readonly argument: string;
  /** The `@Complete()` method; undefined for a static `complete` list of `@Prompt()` / `@ResourceTemplate()`. */
  readonly owner?: { readonly target: Function; readonly method: string };
  /** The static list. */
  readonly values?: readonly string[];
  /** The scopes the `@Complete()` method requires (`@Scopes()`). */
  readonly requiredScopes?: readonly string[];
}

/** A completer built by `stage()`. */
export interface StagedCompleter {
  readonly key: string;
  readonly completer: Completer;
  readonly needsContext: boolean;
  readonly source: CompleterSource;
}

/**
 * What a completer's undecorated parameters receive: #0 the typed value, #1 the other arguments. Both are
 * validated like any argument; `@Ctx()` and custom parameter decorators work as everywhere.
 */
const IMPLICIT: readonly ParamMetadata[] = [
  { kind: 'param', index: 0, name: 'value', options: { type: String } },
  {
    kind: 'param',
    index: 1,
    name: 'context',
    options: { schema: { type: 'object', properties: { arguments: { type: 'object', additionalProperties: { type: 'string' } } } } },
  },
];

/** Looks up the names that completion targets must exist under (prompt arguments, template variables). */
export interface CompletionTargets {
  promptArguments(name: string): readonly string[] | undefined;
  templateVariables(uriTemplate: string): readonly string[] | undefined;
  /** True for a prompt or template left out by includeTags/excludeTags: its completers are dropped too. */
  isExcluded(ref: CompletionRef): boolean;
}

/** The spec caps a completion at 100 values (server/utilities/completion). */
const MAX_VALUES = 100;

/**
 * Completers for prompt arguments and template variables: `@Complete()` methods, and static `complete`
 * lists from `@Prompt()` / `@ResourceTemplate()` options (filtered by the typed prefix).
 */
export class CompletionRegistry {
  private readonly completers = new Map<string, Completer>();
  private readonly sources = new Map<string, CompleterSource>();
  /** True once a completer receives a Context (`@Ctx()`, or a request-scoped class). */
  usesContext = false;

  constructor(
    private readonly compiler: SchemaCompiler,
    private readonly policy: CallPolicy,
    private readonly services: PipelineServices,
  ) {}

  /** Static lists from decorator options. */
  addStatic(ref: CompletionRef, lists: Record<string, readonly string[]> | undefined): void {
    for (const [argument, values] of Object.entries(lists ?? {})) {
      // A @Complete() method for the same argument wins over the static list.
      if (this.completers.has(key(ref, argument))) continue;
      this.completers.set(key(ref, argument), (value) => capped(values.filter((v) => v.startsWith(value))));
      this.sources.set(key(ref, argument), { ref, argument, values });
    }
  }

  /** What every completer completes, in registration order. */
  described(): readonly CompleterSource[] {
    return [...this.sources.values()];
  }

  /** Builds the completers of `records` (their targets are checked), not yet added. */
  stage(records: readonly ComponentRecord<CompleteOptions>[], targets: CompletionTargets): StagedCompleter[] {
    const staged: StagedCompleter[] = [];
    for (const record of records) {
      const { host, method, options } = record;
      const { target } = host;
      const ref: CompletionRef =
        'prompt' in options ? { type: 'ref/prompt', name: options.prompt } : { type: 'ref/resource', uri: options.resourceTemplate };
      if (targets.isExcluded(ref)) continue;
      const where = `${target.name}.${method}`;
      this.checkTarget(ref, options.argument, where, targets);
      const compiled = compileMethod(host, method, `the completer ${where}`, this.compiler, undefined, IMPLICIT);
      const pipeline = new Pipeline<CompletionResult, undefined>({
        compiled,
        enhancers: record.enhancers,
        component: { kind: 'completion', name: `${ref.type === 'ref/prompt' ? ref.name : ref.uri}#${options.argument}`, method: 'completion/complete' },
        ...this.services,
        convert: (values) => capped(Array.isArray(values) ? values.map(String) : []),
        invalid: (issues) => {
          throw new RequestError(RpcCode.InvalidParams, `Invalid completion request for '${options.argument}': ${issues.join('; ')}`);
        },
        fail: (error) => {
          throw requestFailure(error, `completing '${options.argument}'`, where, this.policy);
        },
        denied: () => ({ values: [] }),
      });
      staged.push({
        key: key(ref, options.argument),
        completer: (value, context, open) => pipeline.call({ value, context }, open, undefined),
        needsContext: compiled.needsContext,
        source: { ref, argument: options.argument, owner: { target, method }, ...(pipeline.requiredScopes ? { requiredScopes: pipeline.requiredScopes } : {}) },
      });
    }
    return staged;
  }

  /** Adds what `stage()` built. */
  commit(staged: readonly StagedCompleter[]): void {
    for (const entry of staged) {
      this.completers.set(entry.key, entry.completer);
      this.sources.set(entry.key, entry.source);
      if (entry.needsContext) this.usesContext = true;
    }
  }

  /** `completion/complete`: at most 100 values, with `total` and `hasMore` when there were more. */
  async complete(ref: CompletionRef, argument: string, value: string, context: CompletionContext, open: () => RequestChannel): Promise<CompletionResult> {
    const completer = this.completers.get(key(ref, argument));
    if (!completer) return { values: [] };
    return completer(value, context, open);
  }

  private checkTarget(ref: CompletionRef, argument: string, where: string, targets: CompletionTargets): void {
    const known = ref.type === 'ref/prompt' ? targets.promptArguments(ref.name) : targets.templateVariables(ref.uri);
    const what = ref.type === 'ref/prompt' ? `prompt '${ref.name}'` : `resource template '${ref.uri}'`;
    if (known === undefined) {
      throw new BootstrapError(
        BootstrapErrorCode.UnknownCompletionTarget,
        `Cannot register the completer ${where}: there is no ${what}.\n` +
          `Fix: point @Complete() at an existing ${ref.type === 'ref/prompt' ? 'prompt name' : 'URI template, written exactly as in @ResourceTemplate()'}.`,
      );
    }
    if (!known.includes(argument)) {
      throw new BootstrapError(
        BootstrapErrorCode.UnknownCompletionTarget,
        `Cannot register the completer ${where}: ${what} has no ${ref.type === 'ref/prompt' ? 'argument' : 'variable'} '${argument}' ` +
          `(it has: ${known.join(', ') || 'none'}).\n` +
          `Fix: set @Complete({ argument }) to one of those names.`,
      );
    }
  }
}

function capped(values: readonly string[]): CompletionResult {
  if (values.length <= MAX_VALUES) return { values: [...values], total: values.length, hasMore: false };
  return { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: true };
}

function key(ref: CompletionRef, argument: string): string {
  return ref.type === 'ref/prompt' ? `prompt\u0000${ref.name}\u0000${argument}` : `template\u0000${ref.uri}\u0000${argument}`;
}
