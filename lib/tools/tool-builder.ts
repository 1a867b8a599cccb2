import { withToolUi } from '../apps';
import { BootstrapError, BootstrapErrorCode, RequestError, RpcCode } from '../errors';
import type { JsonSchema, StandardSchema, ToolOptions } from '../interfaces';
import { answerFailure, compileMethod, compileOrExplain, IMPLICIT_ARGS, pruneUndefined, schemaCompilerOf, type CallPolicy, type RawInput } from '../invocation';
import { Pipeline, type ComponentRecord, type PipelineServices } from '../pipeline';
import { inlineRefs, isStandardSchema, outputSchema, standardJsonSchema } from '../schema';
import { taskSettings } from '../tasks';
import { standardIssues, type SchemaCompiler, type ValidateFunction } from '../validation';
import { transformArguments } from './arg-transforms';
import { compileResultConverter, type CallOutcome, type OutputCheck } from './result-converter';
import type { ToolDefinition, ToolDescriptor } from './tool-definition';
import { toolOwner, unknownToolMessage } from './tool.messages';

/** What building a tool needs besides its record. */
export interface ToolBuildContext {
  readonly compiler: SchemaCompiler;
  readonly policy: CallPolicy;
  readonly services: PipelineServices;
  readonly intern: (schema: JsonSchema) => JsonSchema;
  /** How deep recursive `$ref`s are inlined in advertised schemas; `'keep'`: schemas keep their references. */
  readonly refs: number | 'keep';
}

/** Builds one tool from a `@Tool()` method: schema, validator, binder, converter, and its pipeline. */
export function buildTool(record: ComponentRecord<ToolOptions>, build: ToolBuildContext): ToolDefinition {
  const { host, method, options } = record;
  const { policy } = build;
  // A proxied server's schemas are known only at run time: interpreted where code cannot be generated.
  const compiler = schemaCompilerOf(host, build.compiler);
  const origin = host.provided?.origin;
  const name = options.name ?? method;
  const owner = toolOwner(name, host.target.name, method);
  // A raw schema's references are checked before its validator is compiled: the compiler's own error would not say what to do.
  const raw = rawInput(options, owner);
  const standardOutput = isStandardSchema(options.outputSchema) ? options.outputSchema : undefined;
  const outputJson = standardOutput ? standardJsonSchema(standardOutput, 'output', { owner, position: '@Tool({ outputSchema })' }) : (options.outputSchema as JsonSchema | undefined);
  for (const [schema, which] of [[raw?.schema, 'input schema'], [outputJson, 'output schema']] as const) if (schema) refFree(schema, which, owner, build.refs);
  const declared = compileMethod(host, method, owner, compiler, raw, options.parameters !== undefined ? IMPLICIT_ARGS : undefined);
  const args = record.transform?.args?.length ? transformArguments(declared.inputSchema, record.transform.args, owner, compiler) : undefined;
  // Validation keeps the method's own schema; clients see the transformed one, and their arguments are mapped to it.
  const compiled = args ? { ...declared, mapArguments: args.mapper, needsContext: declared.needsContext || args.mapper.needsContext } : declared;
  const task = taskSettings(options.task, owner);
  if (options.output !== undefined && options.outputSchema !== undefined) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      `Cannot build ${owner}: @Tool() gives both output and outputSchema, two sources for one output schema.\n` +
        `Fix: keep one: output (a DTO class or a type, from which the schema is built) or outputSchema (a JSON Schema used verbatim).`,
    );
  }
  const output = options.output
    ? outputSchema(
        options.output,
        {
          owner,
          position: '@Tool({ output })',
          explicitFix: 'give @Tool({ output }) a DTO class, String, Number, Boolean, or [ItemType].',
          schema: 'output',
        },
        host.types,
      )
    : outputJson
      ? { schema: outputJson, wrapped: false, generated: false }
      : undefined;

  const descriptor: ToolDescriptor = pruneUndefined({
    name,
    title: options.title,
    description: options.description ?? host.types.method(host.target, method)?.method?.description,
    inputSchema: build.intern(refFree(args?.schema ?? compiled.inputSchema, 'input schema', owner, build.refs)),
    outputSchema: output && build.intern(refFree(output.schema, 'output schema', owner, build.refs)),
    annotations: options.annotations,
    icons: options.icons,
    _meta: withToolUi(options._meta, options.ui),
    execution: task && { taskSupport: task.support },
  });

  const outputCheck: OutputCheck | undefined = output && {
    wrapped: output.wrapped,
    validate: outputValidator(owner, output, options.outputSchema !== undefined, compiler, origin),
    reporting: lazy(() => compiler.compileReporting(output.schema, 'output')),
    ...(standardOutput ? { parse: standardOutputParser(standardOutput) } : {}),
  };
  const convertResult = compileResultConverter(outputCheck);
  const where = `${compiled.className}.${compiled.methodName}`;

  const failure = (error: unknown): CallOutcome => {
    const answer = answerFailure(error, { kind: 'tool', name, where }, policy);
    if ('error' in answer) throw answer.error; // input required, or the tool's way of answering with a JSON-RPC error
    return answer.result;
  };

  const pipeline = new Pipeline<CallOutcome, undefined>({
    compiled,
    enhancers: record.enhancers,
    component: { kind: 'tool', name, method: 'tools/call' },
    ...build.services,
    timeout: options.timeout,
    convert: (value) => {
      const converted = convertResult(value);
      if (converted.ok) return converted.outcome;
      const detail = converted.issues.join('; ');
      const what = converted.malformed ? 'a CallToolResult that is not valid' : 'output that does not match its output schema';
      policy.logger.error(`Tool '${name}' (${where}) returned ${what}: ${detail}`);
      return errorResult(`Tool '${name}' returned ${what}: ${detail}`);
    },
    invalid: (issues) => errorResult(`Invalid arguments for tool ${name}: ${(args ? issues.map(args.mapper.advertised) : issues).join('; ')}`),
    fail: failure,
    denied: () => {
      // Spec 2025-11-25 server/tools#error-handling: an unknown tool is a protocol error (-32602).
      throw unknownTool(name);
    },
  });
  return { ...compiled, name, descriptor, tags: options.tags, pipeline, ...(task ? { task } : {}) };
}

/**
 * The input a tool gives whole: `inputSchema` (JSON Schema), or `parameters` (a Standard Schema, advertised as its
 * JSON Schema and validating the call itself, or a JSON Schema). Both at once are two sources for one schema.
 */
function rawInput(options: ToolOptions, owner: string): RawInput | undefined {
  const { parameters, inputSchema } = options;
  if (parameters === undefined) return inputSchema && { schema: inputSchema };
  if (inputSchema !== undefined) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      `Cannot build ${owner}: @Tool() gives both parameters and inputSchema, two sources for one input schema.\n` +
        `Fix: keep one: parameters (a Standard Schema such as z.object({ ... }), or a JSON Schema) or inputSchema (a JSON Schema used verbatim).`,
    );
  }
  if (!isStandardSchema(parameters)) return { schema: parameters as JsonSchema };
  return { schema: standardJsonSchema(parameters, 'input', { owner, position: '@Tool({ parameters })' }), standard: parameters };
}

/**
 * The output check of `@Tool({ outputSchema })` given as a Standard Schema: its library decides, and its output
 * (unknown keys stripped, as the advertised output side says) is the structuredContent. A result is converted
 * synchronously, so a schema whose library answers with a promise is reported, not awaited.
 */
function standardOutputParser(schema: StandardSchema): NonNullable<OutputCheck['parse']> {
  return (structured) => {
    const result = schema['~standard'].validate(structured);
    if (typeof (result as PromiseLike<unknown>).then === 'function') {
      Promise.resolve(result).catch(() => undefined);
      return { issues: ['its output schema validates asynchronously; give @Tool({ outputSchema }) a schema without asynchronous rules'] };
    }
    const settled = result as Exclude<typeof result, PromiseLike<unknown>>;
    return settled.issues ? { issues: standardIssues(settled.issues) } : { value: settled.value as Record<string, unknown> };
  };
}

/**
 * A schema as clients are sent it: every `$ref` inlined (docs/composition.md#schemas-without-ref), unless the
 * application keeps them. A reference that points nowhere fails the bootstrap naming the tool.
 */
function refFree(schema: JsonSchema, which: string, owner: string, refs: number | 'keep'): JsonSchema {
  if (refs === 'keep') return schema;
  const inlined = inlineRefs(schema, refs);
  if ('schema' in inlined) return inlined.schema;
  throw new BootstrapError(
    BootstrapErrorCode.UnresolvableSchemaRef,
    `Cannot build ${owner}: its ${which} cannot be sent without references: ${inlined.problem}.
` +
      (inlined.ref !== undefined
        ? `Fix: define what '${inlined.ref}' names under the schema's own $defs, or keep references in advertised schemas with McpModule.forRoot({ schemaRefs: 'keep' }).`
        : `Fix: give a lower McpModule.forRoot({ schemaRefs: { recursionDepth } }), or keep references with schemaRefs: 'keep'.`),
  );
}

/** The answer to a tool that does not exist (or that the caller may not see). */
export function unknownTool(name: string): RequestError {
  return new RequestError(RpcCode.InvalidParams, unknownToolMessage(name));
}

function errorResult(text: string): CallOutcome {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The output check of a tool. A schema built from `output` is compiled now; a verbatim `outputSchema` (a proxied
 * server's, an OpenAPI operation's: catalogues of a thousand large schemas) is checked against the meta-schema
 * now, so that an invalid one still fails the bootstrap, and compiled on the tool's first result.
 */
function outputValidator(owner: string, output: { schema: JsonSchema; generated: boolean }, verbatim: boolean, compiler: SchemaCompiler, origin?: string): () => ValidateFunction {
  if (!verbatim) {
    const validate = compileOrExplain(owner, 'output schema', () => compiler.compile(output.schema, 'output', output.generated), origin);
    return () => validate;
  }
  compileOrExplain(owner, 'output schema', () => compiler.check(output.schema, 'output'), origin);
  return lazy(() => compiler.compile(output.schema, 'output', true));
}

function lazy(make: () => ValidateFunction): () => ValidateFunction {
  let value: ValidateFunction | undefined;
  return () => (value ??= make());
}
