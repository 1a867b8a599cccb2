import type { JsonSchema, ToolOptions } from '../interfaces';
import { compileMethod, compileOrExplain, type MethodHost, pruneUndefined } from '../invocation';
import { outputSchema } from '../schema';
import type { SchemaCompiler, ValidateFunction } from '../validation';
import { compileResultConverter, type OutputCheck } from './result-converter';
import type { ToolDefinition, ToolDescriptor } from './tool-definition';
import { toolOwner } from './tool.messages';

/** Builds one tool from a provider instance and one `@Tool()` method: schema, validator, binder, converter. */
export function buildTool(
  host: MethodHost,
  method: string,
  options: ToolOptions,
  compiler: SchemaCompiler,
  intern: (schema: JsonSchema) => JsonSchema = (schema) => schema,
): ToolDefinition {
  const name = options.name ?? method;
  const owner = toolOwner(name, host.target.name, method);
  const compiled = compileMethod(host, method, owner, compiler, options.inputSchema);
  const output = options.output
    ? outputSchema(options.output, {
        owner,
        position: '@Tool({ output })',
        explicitFix: 'give @Tool({ output }) a DTO class, String, Number, Boolean, or [ItemType].',
        schema: 'output',
      })
    : undefined;

  const descriptor: ToolDescriptor = pruneUndefined({
    name,
    title: options.title,
    description: options.description,
    inputSchema: intern(compiled.inputSchema),
    outputSchema: output && intern(output.schema),
    annotations: options.annotations,
    icons: options.icons,
    _meta: options._meta,
  });

  const outputCheck: OutputCheck | undefined = output && {
    wrapped: output.wrapped,
    validate: compileOrExplain(owner, 'output schema', () => compiler.compile(output.schema, 'output', output.generated)),
    reporting: lazy(() => compiler.compileReporting(output.schema, 'output')),
  };

  // needsContext covers request-scoped classes too (their instance is resolved per request).
  const direct = !compiled.needsContext && options.timeout === undefined && compiled.runtimeChecked.length === 0;
  return { ...compiled, name, descriptor, timeout: options.timeout, convertResult: compileResultConverter(outputCheck), direct };
}

function lazy(make: () => ValidateFunction): () => ValidateFunction {
  let value: ValidateFunction | undefined;
  return () => (value ??= make());
}
