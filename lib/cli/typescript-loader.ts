import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CliError, CliErrorCode } from './cli.error';

interface Swc {
  transformSync(source: string, options: object): { code: string };
  parseSync(source: string, options: object): { body: unknown[] };
}

/** `module.registerHooks()` of Node ≥ 22.15 (and ≥ 23.5): synchronous hooks that `require()` honours too. */
type ResolveHook = (specifier: string, context: object, next: (specifier: string, context?: object) => unknown) => unknown;
type RegisterHooks = (hooks: { resolve: ResolveHook }) => unknown;

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

/** What TypeScript takes a relative import's extension for when that file is not there (nodenext sources name the built file). */
const SOURCES: Record<string, readonly string[]> = { '.js': ['.ts', '.tsx'], '.cjs': ['.cts'], '.mjs': ['.mts'] };

let registered = false;

/**
 * Lets `require` load TypeScript: a `require` hook for `.ts`, `.cts` and `.tsx` through pirates (the hook library of
 * @babel/register, jest and ts-node), compiling with the project's @swc/core; and the `.js` → `.ts` resolution of
 * nodenext sources through Node's public `module.registerHooks()` (Node ≥ 22.15), or, on older Node, by the compile
 * step itself (see {@link pointAtSources}). A loader registered before (ts-node, @swc/register, spec/support/register.js)
 * keeps compiling: what it hands on is no longer the file's text, and is left as it is.
 */
export function registerTypeScript(file: string): void {
  if (registered) return;
  const swc = requireSwc(file);
  const { addHook } = require('pirates') as typeof import('pirates');
  const hooks = (require('node:module') as { registerHooks?: RegisterHooks }).registerHooks;
  if (hooks) hooks({ resolve: resolveJsToTs });
  addHook(
    (code, filename) => {
      const compiled = withoutBom(code) === withoutBom(readFileSync(filename, 'utf8')) ? swc.transformSync(code, { ...swcOptions, filename }).code : code;
      return hooks ? compiled : pointAtSources(swc, compiled, filename);
    },
    { exts: ['.ts', '.cts', '.tsx'], ignoreNodeModules: false },
  );
  registered = true;
}

const withoutBom = (text: string) => text.replace(/^\uFEFF/, '');

/** The resolve hook: a relative `./x.js` that is not there is taken for `./x.ts` (or `.tsx`; `.cjs` → `.cts`, `.mjs` → `.mts`). */
const resolveJsToTs: ResolveHook = (specifier, context, next) => {
  try {
    return next(specifier, context);
  } catch (error) {
    const extension = /^\.\.?\//.test(specifier) ? path.extname(specifier) : '';
    for (const source of SOURCES[extension] ?? []) {
      try {
        return next(specifier.slice(0, -extension.length) + source, context);
      } catch {
        // not this one either
      }
    }
    throw error;
  }
};

/**
 * Node before 22.15 has no public resolve hook for `require()`: the compiled module's `require("./x.js")` calls (swc's
 * CommonJS output of `import … from './x.js'`, read with swc's parser) are pointed at `./x.ts` when `x.js` is not
 * beside the file and `x.ts` is, as TypeScript resolves them.
 */
function pointAtSources(swc: Swc, code: string, filename: string): string {
  if (!/require\("\.\.?\/[^"]*\.[cm]?js"\)/.test(code)) return code;
  const specifiers = new Set<string>();
  collectRequires(swc.parseSync(code, { syntax: 'ecmascript' }).body, specifiers);
  let pointed = code;
  for (const specifier of specifiers) {
    const extension = /^\.\.?\//.test(specifier) ? path.extname(specifier) : '';
    const target = path.resolve(path.dirname(filename), specifier);
    if (!SOURCES[extension] || existsSync(target)) continue;
    const source = SOURCES[extension].find((candidate) => existsSync(target.slice(0, -extension.length) + candidate));
    if (source) pointed = pointed.split(`require(${JSON.stringify(specifier)})`).join(`require(${JSON.stringify(specifier.slice(0, -extension.length) + source)})`);
  }
  return pointed;
}

/** The literal arguments of the `require('…')` calls under `node`. */
function collectRequires(node: unknown, found: Set<string>): void {
  if (Array.isArray(node)) return node.forEach((child) => collectRequires(child, found));
  if (!node || typeof node !== 'object') return;
  const n = node as { type?: string; callee?: { type?: string; value?: string }; arguments?: { expression?: { type?: string; value?: unknown } }[] };
  const argument = n.arguments?.[0]?.expression;
  if (n.type === 'CallExpression' && n.callee?.type === 'Identifier' && n.callee.value === 'require' && argument?.type === 'StringLiteral') found.add(String(argument.value));
  for (const [key, value] of Object.entries(n)) if (key !== 'span') collectRequires(value, found);
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
