import { existsSync } from 'node:fs';
import path from 'node:path';
import { defaultMetadataFile } from '../generator';
import { CliError, CliErrorCode } from './cli.error';
import { describe, requireFile } from './load-entry';

/** The module name `mcp-reflect generate` writes by default (`src/mcp-metadata.ts`), and what it compiles to. */
const BASENAME = 'mcp-metadata';
const TYPESCRIPT_ENTRY = /\.[cm]?tsx?$/;

/**
 * The generated module that belongs with `entry`, as the server's own entry would import it, or undefined:
 * `mcp-metadata` in the entry's folder or a folder above it, up to the project's (the nearest holding a
 * tsconfig.json, else a package.json); for a TypeScript entry also where `mcp-reflect generate` writes by
 * default (the project's src/mcp-metadata.ts). A compiled entry (`dist/app.module.js`) finds the compiled
 * module (`dist/mcp-metadata.js`), which imports the same classes the entry does.
 */
export function findMetadataFile(entry: string): string | undefined {
  const file = path.resolve(entry);
  const typescript = TYPESCRIPT_ENTRY.test(file);
  const extensions = typescript ? ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'] : ['.js', '.cjs', '.mjs', '.json'];
  const root = projectRoot(path.dirname(file));
  const folders: string[] = [];
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    folders.push(dir);
    if (root === undefined || dir === root || path.dirname(dir) === dir) break;
  }
  const candidates = folders.flatMap((dir) => extensions.map((extension) => path.join(dir, `${BASENAME}${extension}`)));
  if (typescript && root !== undefined) candidates.push(defaultMetadataFile(root));
  return candidates.find((candidate) => existsSync(candidate));
}

/** The nearest folder at or above `dir` with a tsconfig.json, else with a package.json. */
function projectRoot(dir: string): string | undefined {
  for (const marker of ['tsconfig.json', 'package.json']) {
    for (let at = dir; ; at = path.dirname(at)) {
      if (existsSync(path.join(at, marker))) return at;
      if (path.dirname(at) === at) break;
    }
  }
  return undefined;
}

/**
 * Loads a generated module (`--metadata <file>` or the one found for the entry) with the entry's loader and
 * returns its `metadata` export (a .json file: the whole document).
 */
export function loadMetadataFile(file: string, given: boolean): unknown {
  const resolved = path.resolve(file);
  const how = given ? `--metadata ${file}` : `the generated metadata ${path.relative(process.cwd(), resolved) || resolved}`;
  if (!existsSync(resolved)) {
    throw new CliError(
      CliErrorCode.MetadataNotFound,
      `Cannot find ${how} (looked at ${resolved}).\nGive the module \`mcp-reflect generate\` wrote (e.g. --metadata dist/mcp-metadata.js for a built entry), or run \`npx mcp-reflect generate\`.`,
    );
  }
  let exported: unknown;
  try {
    exported = requireFile(resolved);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      CliErrorCode.MetadataLoadFailed,
      `Cannot load ${how}: ${describe(error)}\nFix: regenerate it with \`npx mcp-reflect generate\` (and build again for a compiled entry), or pass another file with --metadata.`,
      { cause: error },
    );
  }
  const module = exported as { metadata?: unknown; default?: unknown } | undefined;
  const metadata = module?.metadata ?? module?.default ?? exported;
  const shaped = metadata as { version?: unknown; classes?: unknown } | undefined;
  if (typeof shaped !== 'object' || shaped === null || !Array.isArray(shaped.classes) || typeof shaped.version !== 'number') {
    throw new CliError(
      CliErrorCode.MetadataLoadFailed,
      `Cannot use ${how}: it is not a module written by \`mcp-reflect generate\` (it exports no \`metadata\` with { version, classes }).\n` +
        'Fix: pass the file `mcp-reflect generate` wrote (default: src/mcp-metadata.ts, built to dist/mcp-metadata.js), or regenerate it.',
    );
  }
  return metadata;
}
