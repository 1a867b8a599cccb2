import { existsSync } from 'node:fs';
import path from 'node:path';
import { getModuleMetadata, isNestModule } from '../metadata';
import { CliError, CliErrorCode } from './cli.error';
import { registerTypeScript } from './typescript-loader';

/**
 * The root module of an entry: a class of mcp-reflect's `@Module()` (run on the standalone container), or of
 * Nest's `@Module()` from @nestjs/common (a Nest application importing `McpModule` from 'mcp-reflect/nest', run
 * in a Nest application context).
 */
export interface RootModule {
  readonly kind: 'standalone' | 'nest';
  readonly module: Function;
}

/** Requires `entry` (JavaScript, or TypeScript through the project's @swc/core) and returns its root module class. */
export function loadRootModule(entry: string, moduleName?: string): RootModule {
  const file = path.resolve(entry);
  if (!existsSync(file)) throw new CliError(CliErrorCode.EntryNotFound, `Cannot find the entry file ${entry} (looked at ${file}).\nGive the path of the file that exports your root module, e.g. \`mcp-reflect inspect dist/app.module.js\`.`);
  let exported: unknown;
  try {
    exported = requireFile(file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(CliErrorCode.EntryLoadFailed, `Cannot load ${entry}: ${describe(error)}\nFix the error in the entry (or in a file it imports) and run the command again.`, { cause: error });
  }
  return pickModule(entry, exported, moduleName);
}

/** Requires a JavaScript or TypeScript file (TypeScript through the project's @swc/core, see ./typescript-loader.ts). */
export function requireFile(file: string): unknown {
  if (/\.[cm]?tsx?$/.test(file)) registerTypeScript(file);
  return require(file);
}

/** What kind of root module a value is, if any: mcp-reflect's @Module() first (a class may carry both). */
function kindOf(value: unknown): RootModule['kind'] | undefined {
  if (typeof value !== 'function') return undefined;
  if (getModuleMetadata(value) !== undefined) return 'standalone';
  return isNestModule(value) ? 'nest' : undefined;
}

const BOTH_KINDS =
  "a class decorated with @Module() of 'mcp-reflect' (a standalone application), or with @Module() of '@nestjs/common' importing McpModule.forRoot() of 'mcp-reflect/nest' (a Nest application)";

function pickModule(entry: string, exported: unknown, moduleName?: string): RootModule {
  const root = (value: unknown): RootModule | undefined => {
    const kind = kindOf(value);
    return kind ? { kind, module: value as Function } : undefined;
  };
  const exports = (typeof exported === 'object' || typeof exported === 'function') && exported !== null ? (exported as Record<string, unknown>) : {};
  const names = Object.keys(exports);
  if (moduleName !== undefined) {
    const named = root(exports[moduleName]);
    if (named) return named;
    const found = moduleName in exports ? `exports ${moduleName}, but it is not ${BOTH_KINDS}` : `has no export named ${moduleName}`;
    throw new CliError(CliErrorCode.NoModule, `Cannot use ${entry}: it ${found} (its exports: ${names.join(', ') || 'none'}).\nPass --module with the name of the exported root module class.`);
  }
  const whole = root(exported) ?? root(exports.default);
  if (whole) return whole;
  const modules = names.filter((name) => kindOf(exports[name]) !== undefined);
  if (modules.length === 1) return root(exports[modules[0]!])!;
  if (modules.length > 1) {
    throw new CliError(CliErrorCode.NoModule, `Cannot choose the root module of ${entry}: it exports several @Module() classes (${modules.join(', ')}).\nPass --module with the name of the root one, e.g. --module ${modules[0]}.`);
  }
  throw new CliError(
    CliErrorCode.NoModule,
    `Cannot find a root module in ${entry}: none of its exports (${names.join(', ') || 'none'}) is ${BOTH_KINDS}.\n` +
      'Export the root module class from the entry (as the default export or a named one), decorated with either @Module().',
  );
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
