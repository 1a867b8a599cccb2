import { BootstrapError, BootstrapErrorCode } from '../errors';
import { renamedParameterMessage, type CompiledMethod } from '../invocation';
import type { ServerLogger } from '../interfaces';
import type { McpWarningOptions } from './mcp-options';

/**
 * `LookupTools.lookup: parameter #0 is advertised as 'url2' …`: an unnamed `@Param()` whose name, read from the
 * compiled code with no generated entry to correct it, is one a bundler gives. Each once per application;
 * `warnings.renamedParameters`: true (default) warns, `'error'` stops the bootstrap, false is silent.
 */
export function reportRenamedParameters(
  methods: readonly CompiledMethod[],
  logger: ServerLogger,
  warnings: McpWarningOptions = {},
  seen: Set<string>,
): void {
  const setting = warnings.renamedParameters ?? true;
  if (setting === false) return;
  for (const method of methods) {
    const owner = `${method.className}.${method.methodName}`;
    for (const { index, name } of method.renamedParameters) {
      const key = `${owner}#${index}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const message = renamedParameterMessage(owner, index, name);
      if (setting === 'error') throw new BootstrapError(BootstrapErrorCode.RenamedParameter, message);
      logger.warn(message);
    }
  }
}
