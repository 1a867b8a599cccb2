import { Catalogue, passesTags, type TagFilter } from '../catalogue';
import type { RequestChannel } from '../context';
import { BootstrapError, BootstrapErrorCode, RequestError, RpcCode } from '../errors';
import type { JsonSchema, PromptOptions, ToolIcon } from '../interfaces';
import { compileMethod, requestFailure, type CallPolicy, type CompiledMethod, pruneUndefined } from '../invocation';
import { allowedItems, isGuarded, Pipeline, type ComponentRecord, type PipelineServices } from '../pipeline';
import type { SchemaCompiler } from '../validation';
import { toPromptResult, type PromptResult } from './prompt-result';

/** A prompt as `prompts/list` shows it. */
export interface PromptDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: { name: string; description?: string; required: boolean }[];
  readonly icons?: ToolIcon[];
  readonly _meta?: Record<string, unknown>;
}

export interface PromptDefinition {
  readonly name: string;
  readonly tags?: readonly string[];
  readonly descriptor: PromptDescriptor;
  readonly compiled: CompiledMethod;
  readonly pipeline: Pipeline<PromptResult, undefined>;
  readonly complete?: Record<string, readonly string[]>;
}

/**
 * The prompts of the application. Arguments come from the method's `@Param()`s (or `@Args()` DTO) and are
 * validated like tool arguments, with lenient coercion since the wire carries strings.
 */
export class PromptRegistry extends Catalogue<PromptDefinition, PromptDescriptor> {
  /** Prompts left out by includeTags/excludeTags. */
  readonly excluded = new Set<string>();

  constructor(
    private readonly compiler: SchemaCompiler,
    private readonly policy: CallPolicy,
    private readonly services: PipelineServices,
    private readonly filter: TagFilter = {},
    pageSize?: number,
  ) {
    super('prompt', (p) => p.descriptor, pageSize);
  }

  /** Builds the prompts of `records` without adding them. */
  stage(records: readonly ComponentRecord<PromptOptions>[]): PromptDefinition[] {
    const staged: PromptDefinition[] = [];
    const names = new Map<string, PromptDefinition>();
    for (const record of records) {
      const { host, method, options } = record;
      const { target } = host;
      const name = options.name ?? method;
      const clash = this.find(name) ?? names.get(name);
      if (clash) {
        throw new BootstrapError(
          BootstrapErrorCode.DuplicatePrompt,
          `Cannot register prompt '${name}': both ${clash.compiled.className}.${clash.compiled.methodName} and ` +
            `${target.name}.${method} use that name, and prompt names must be unique in a server.\n` +
            `Fix: name one of them explicitly, e.g. @Prompt({ name: '${name}_2' }).`,
        );
      }
      const compiled = compileMethod(host, method, `prompt '${name}' (${target.name}.${method})`, this.compiler);
      const descriptor = pruneUndefined({
        name,
        title: options.title,
        description: options.description ?? host.types.method(target, method)?.method?.description,
        arguments: promptArguments(compiled.inputSchema),
        icons: options.icons,
        _meta: options._meta,
      });
      if (!passesTags(options.tags, this.filter)) {
        this.excluded.add(name);
        continue;
      }
      const prompt = { name, tags: options.tags, descriptor, compiled, pipeline: this.pipeline(record, compiled, name, descriptor), complete: options.complete };
      staged.push(prompt);
      names.set(name, prompt);
    }
    return staged;
  }

  /** `prompts/get`. */
  render(name: string, args: Record<string, string> | undefined, open: () => RequestChannel): PromptResult | Promise<PromptResult> {
    const prompt = this.get(name);
    if (!prompt) return this.unknown(name, open);
    const result = prompt.pipeline.call(args ?? {}, open, undefined);
    // A guard's no is answered as an unknown prompt (a guarded pipeline always answers with a promise).
    return result instanceof Promise ? result.catch((error: unknown) => (error instanceof HiddenPrompt ? this.unknown(name, open) : Promise.reject(error))) : result;
  }

  private pipeline(record: ComponentRecord<PromptOptions>, compiled: CompiledMethod, name: string, descriptor: PromptDescriptor): Pipeline<PromptResult, undefined> {
    const where = `${compiled.className}.${compiled.methodName}`;
    return new Pipeline<PromptResult, undefined>({
      compiled,
      enhancers: record.enhancers,
      component: { kind: 'prompt', name, method: 'prompts/get' },
      ...this.services,
      convert: (value) => {
        const result = toPromptResult(value, descriptor.description);
        if (result) return result;
        this.policy.logger.error(`Prompt '${name}' (${where}) returned a value that is not a string, messages, or { messages }.`);
        throw new RequestError(RpcCode.InternalError, `Error getting prompt '${name}'`);
      },
      invalid: (issues) => {
        throw new RequestError(RpcCode.InvalidParams, `Invalid arguments for prompt ${name}: ${issues.join('; ')}`);
      },
      fail: (error) => {
        throw requestFailure(error, `getting prompt '${name}'`, where, this.policy);
      },
      denied: () => {
        throw new HiddenPrompt();
      },
    });
  }

  /**
   * `Unknown prompt: <name>. Available prompts: …`, naming the prompts this caller's `prompts/list` shows: a
   * prompt hidden by its scopes or guards is no more named here than there.
   */
  private async unknown(name: string, open: () => RequestChannel): Promise<never> {
    const visible = isGuarded(this) ? await allowedItems(this.values(), (p) => p.pipeline, open, 'prompts/list', this.services.openScope) : this.values();
    throw new RequestError(RpcCode.InvalidParams, `Unknown prompt: ${name}. Available prompts: ${visible.map((p) => p.name).join(', ') || '(none)'}`);
  }
}

/** What a prompt's guard denial throws, for `render` to answer as an unknown prompt. */
class HiddenPrompt extends Error {}

function promptArguments(schema: JsonSchema): PromptDescriptor['arguments'] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) =>
    pruneUndefined({ name, description: property.description as string | undefined, required: required.has(name) }),
  );
}
