import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getModuleMetadata, isNestModule } from '../metadata';
import { CliError, CliErrorCode } from './cli.error';

type CompiledModule = NodeJS.Module & { _compile(code: string, filename: string): void };
interface Swc {
  transformSync(source: string, options: object): { code: string };
}

/** The options of spec/support/register.js and docs/testing.md: legacy decorators with their design metadata. */
const swcOptions = {
  swcrc: false,
  sourceMaps: 'inline',
  module: { type: 'commonjs' },
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    keepClassNames: true,
  },
};

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

/** Requires a JavaScript or TypeScript file (TypeScript through the project's @swc/core, see registerTypeScript). */
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

/**
 * Lets `require` load TypeScript with the project's @swc/core, unless a loader is already registered (ts-node,
 * @swc/register, spec/support/register.js).
 */
function registerTypeScript(file: string): void {
  resolveJsToTs();
  if (require.extensions['.ts']) return;
  const swc = requireSwc(file);
  const compile = (module: NodeJS.Module, filename: string) => {
    const { code } = swc.transformSync(readFileSync(filename, 'utf8'), { ...swcOptions, filename });
    (module as CompiledModule)._compile(code, filename);
  };
  for (const extension of ['.ts', '.cts', '.tsx']) require.extensions[extension] = compile;
}

/**
 * `import './report.tools.js'` in TypeScript source (what docs/setup.md recommends for nodenext) names the file
 * the build will write: as TypeScript does, a relative `.js` / `.cjs` / `.mjs` that is not there is taken for the
 * `.ts` / `.cts` / `.mts` (or `.tsx`) beside it.
 */
let resolvingJsToTs = false;
function resolveJsToTs(): void {
  if (resolvingJsToTs) return;
  resolvingJsToTs = true;
  const Module = require('node:module') as { _resolveFilename: (request: string, parent: unknown, ...rest: unknown[]) => string };
  const resolve = Module._resolveFilename;
  const sources: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.cjs': ['.cts'], '.mjs': ['.mts'] };
  Module._resolveFilename = function (request: string, parent: unknown, ...rest: unknown[]) {
    try {
      return resolve.call(this, request, parent, ...rest);
    } catch (error) {
      const extension = /^\.\.?\//.test(request) ? path.extname(request) : '';
      for (const source of sources[extension] ?? []) {
        try {
          return resolve.call(this, request.slice(0, -extension.length) + source, parent, ...rest);
        } catch {
          // not this one either
        }
      }
      throw error;
    }
  };
}

function requireSwc(file: string): Swc {
  for (const from of [file, path.join(process.cwd(), 'package.json')]) {
    try {
      return createRequire(from)('@swc/core') as Swc;
    } catch {
      // Not installed next to the entry; try the working directory, then give up.
    }
  }
  throw new CliError(CliErrorCode.TypeScriptLoaderMissing, `Cannot load the TypeScript entry ${file}: @swc/core is not installed in this project, and mcp-reflect needs it to compile TypeScript on the fly.\nCompile first (e.g. \`npx tsc\`) and pass the built .js file, or install @swc/core as a dev dependency.`);
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
