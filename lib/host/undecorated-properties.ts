import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { CompiledMethod } from '../invocation';
import type { ServerLogger } from '../interfaces';
import type { McpWarningOptions } from './mcp-options';

/**
 * `Contact.nickname is initialised but has no decorator …`: a DTO property the schema cannot see (no decorator,
 * no generated type), so a client's value for it never reaches the method. Names each property once per
 * application; `warnings.undecoratedProperties`: true (default) warns, `'error'` stops the bootstrap, false is silent.
 */
export function reportUndecoratedProperties(
  methods: readonly CompiledMethod[],
  logger: ServerLogger,
  warnings: McpWarningOptions = {},
  seen: Set<string>,
): void {
  const setting = warnings.undecoratedProperties ?? true;
  if (setting === false) return;
  for (const method of methods) {
    for (const property of method.undecoratedProperties) {
      if (seen.has(property)) continue;
      seen.add(property);
      const message = undecoratedPropertyMessage(property, `${method.className}.${method.methodName}`);
      if (setting === 'error') throw new BootstrapError(BootstrapErrorCode.UndecoratedProperty, message);
      logger.warn(message);
    }
  }
}

export function undecoratedPropertyMessage(property: string, usedBy: string): string {
  return (
    `${property} (a DTO of ${usedBy}) has an initialiser but no decorator, so it is not part of the input schema and a client's value for it never reaches the method.\n` +
    `Fix: add a class-validator decorator (@IsString(), @IsOptional(), …) or @Field(), or generate the full types with \`npx mcp-reflect generate\` (docs/types.md). ` +
    `Silence it with McpModule.forRoot({ warnings: { undecoratedProperties: false } }); 'error' stops the bootstrap instead.`
  );
}
