import { Context, type RequestChannel } from '../context';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { CompleteOptions } from '../interfaces';
import { toRequestError, type CallPolicy, type MethodHost } from '../invocation';
import { getComponentMethods, getComponentOptions } from '../metadata';

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

type Completer = (value: string, context: CompletionContext, channel: RequestChannel) => Promise<readonly string[]>;

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
  /** True once a completer of a request-scoped class exists (it receives a Context). */
  usesContext = false;

  constructor(
    private readonly targets: CompletionTargets,
    private readonly policy: CallPolicy,
  ) {}

  /** Static lists from decorator options. */
  addStatic(ref: CompletionRef, lists: Record<string, readonly string[]> | undefined): void {
    for (const [argument, values] of Object.entries(lists ?? {})) {
      // A @Complete() method for the same argument wins over the static list.
      if (this.completers.has(key(ref, argument))) continue;
      this.completers.set(key(ref, argument), async (value) => values.filter((v) => v.startsWith(value)));
    }
  }

  addHost(host: MethodHost): void {
    const { target } = host;
    for (const method of getComponentMethods('complete', target)) {
      const options = getComponentOptions<CompleteOptions>('complete', target, method)!;
      const ref: CompletionRef =
        'prompt' in options ? { type: 'ref/prompt', name: options.prompt } : { type: 'ref/resource', uri: options.resourceTemplate };
      if (this.targets.isExcluded(ref)) continue;
      this.checkTarget(ref, options.argument, `${target.name}.${method}`);
      const fn = (target.prototype as Record<string, (...args: unknown[]) => unknown>)[method];
      const where = `${target.name}.${method}`;
      if (host.scoped) this.usesContext = true;
      this.completers.set(key(ref, options.argument), async (value, context, channel) => {
        try {
          if (!host.scoped) return (await fn.call(host.instance, value, context)) as string[];
          const request = host.scoped(new Context(channel));
          const instance = await request.instance;
          return (await request.run(() => fn.call(instance, value, context))) as string[];
        } catch (error) {
          throw toRequestError(error, `completing '${options.argument}'`, where, this.policy);
        }
      });
    }
  }

  /** `completion/complete`: at most 100 values, with `total` and `hasMore` when there were more. */
  async complete(ref: CompletionRef, argument: string, value: string, context: CompletionContext, channel: RequestChannel): Promise<CompletionResult> {
    const completer = this.completers.get(key(ref, argument));
    if (!completer) return { values: [] };
    const values = [...(await completer(value, context, channel))].map(String);
    if (values.length <= MAX_VALUES) return { values, total: values.length, hasMore: false };
    return { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: true };
  }

  private checkTarget(ref: CompletionRef, argument: string, where: string): void {
    const known =
      ref.type === 'ref/prompt' ? this.targets.promptArguments(ref.name) : this.targets.templateVariables(ref.uri);
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

function key(ref: CompletionRef, argument: string): string {
  return ref.type === 'ref/prompt' ? `prompt\u0000${ref.name}\u0000${argument}` : `template\u0000${ref.uri}\u0000${argument}`;
}
