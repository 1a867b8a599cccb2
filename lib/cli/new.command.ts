import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { replaceFile } from '../generator';
import { parseArgs, type CommandSpec } from './args';
import { CliError, CliErrorCode, usageError } from './cli.error';
import { projectFiles } from './new/templates';
import type { CommandOutput } from './output';
import { createProgress, type CliIo } from './progress';

export const newSpec: CommandSpec = { name: 'new', positionals: ['dir'], options: { name: 'value', from: 'value', force: 'flag', quiet: 'flag', help: 'flag' } };

export const newUsage = `Usage: mcp-reflect new <dir> [--name <package-name>] [--from <tarball | folder>] [--force]

Creates a project in <dir> (made if missing): a stdio MCP server with one sample tool class and its spec,
compiled by TypeScript 7 (the tsconfig of docs/setup.md) and tested by jest through @swc/jest (docs/testing.md).
Then: cd <dir>, npm install, npm test.

Options:
  --name <name>  the package and server name (default: the folder's name, lower-cased, other characters as -)
  --from <path>  take mcp-reflect from a packed tarball (mcp-reflect-<version>.tgz) or a built clone (its folder,
                 packed here), copied into <dir>/vendor/ and depended on as file:vendor/…, instead of the registry
  --force        write into a folder that is not empty (the template's files replace those of the same name)
  --quiet        no progress line
  --help         show this help`;

/** npm's rule for a package name: lower case, URL-safe, optionally scoped, at most 214 characters. */
const packageName = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

export async function newCommand(argv: readonly string[], io: CliIo = { stderr: process.stderr }): Promise<CommandOutput> {
  const { positionals, options } = parseArgs(argv, newSpec);
  if (options.help) return { stdout: newUsage, exitCode: 0 };
  const dir = positionals[0]!;
  const target = path.resolve(dir);
  const name = projectName(options.name, target);
  checkTarget(dir, target, options.force === true);
  const from = typeof options.from === 'string' ? checkSource(options.from) : undefined;

  const progress = createProgress(io.stderr, { quiet: options.quiet === true });
  progress.update(`Creating ${name} in ${target}`);
  if (from) checkNoLinkedFolder(dir, target, 'vendor');
  const vendored = from && `vendor/${vendor(from, path.join(target, 'vendor'), progress)}`;
  const files = projectFiles(name, vendored && `file:${vendored}`);
  for (const file of files) checkNoLinkedFolder(dir, target, path.posix.dirname(file.path));
  for (const file of files) {
    progress.update(`Writing ${file.path}`);
    const destination = path.join(target, ...file.path.split('/'));
    mkdirSync(path.dirname(destination), { recursive: true });
    // A file of the same name is replaced, a link there included (never its target).
    replaceFile(destination, file.content);
  }
  progress.done();

  const cd = target === process.cwd() ? '.' : dir;
  return {
    stdout: [
      `Created ${name} in ${target}:`,
      ...files.map((file) => `  ${file.path}`),
      ...(vendored ? [`  ${vendored}  (mcp-reflect, the dependency file:${vendored})`] : []),
      '',
      'Next steps:',
      ...(cd === '.' ? [] : [`  cd ${/\s/.test(cd) ? JSON.stringify(cd) : cd}`]),
      '  npm install',
      '  npm test          generate the types, type-check, then run src/greeting.tools.spec.ts with jest',
      '  npm run build     generate the types, then compile src/ to dist/',
      '  npm start         serve over stdio (an MCP client runs: node <this folder>/dist/main.js)',
      '  npm run inspect   build, then list the tools with their schemas',
    ].join('\n'),
    exitCode: 0,
  };
}

interface Source {
  /** A packed tarball, or a clone's folder (with `version` from its package.json) to pack. */
  readonly tarball?: string;
  readonly folder?: string;
  readonly version?: string;
}

/** `--from`: a `.tgz` that exists, or the folder of a built clone of mcp-reflect. */
function checkSource(given: string): Source {
  const full = path.resolve(given);
  if (!existsSync(full)) throw usageError(`Invalid --from ${JSON.stringify(given)}: nothing is there. Give a tarball made by npm pack (mcp-reflect-<version>.tgz) or the folder of a clone of mcp-reflect.`);
  if (statSync(full).isFile()) {
    if (!/\.tgz$/.test(full)) throw usageError(`Invalid --from ${JSON.stringify(given)}: a file given to --from is a tarball made by npm pack (ending in .tgz).`);
    return { tarball: full };
  }
  const manifest = path.join(full, 'package.json');
  const pkg = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string }) : {};
  if (pkg.name !== 'mcp-reflect') throw usageError(`Invalid --from ${JSON.stringify(given)}: that folder is not a clone of mcp-reflect (its package.json names ${JSON.stringify(pkg.name ?? null)}).`);
  if (!existsSync(path.join(full, 'dist', 'index.js'))) throw usageError(`Invalid --from ${JSON.stringify(given)}: the clone is not built (no dist/index.js). Run npm install && npm run build in it first.`);
  return { folder: full, version: pkg.version };
}

/**
 * Puts the library into the project's vendor/ folder: the tarball copied, or the clone packed there (the files
 * a user installs from the registry, so the project gets its own copy, and its peers resolve in the project).
 */
function vendor(source: Source, into: string, progress: { update(line: string): void }): string {
  mkdirSync(into, { recursive: true });
  if (source.tarball) {
    progress.update(`Copying ${path.basename(source.tarball)}`);
    replaceFile(path.join(into, path.basename(source.tarball)), readFileSync(source.tarball));
    return path.basename(source.tarball);
  }
  progress.update(`Packing ${source.folder}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Packed in a folder of its own, then moved in: npm would write through a link already at the tarball's name.
  const packing = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-pack-'));
  try {
    const packed = execFileSync(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', packing], { cwd: source.folder, encoding: 'utf8', shell: process.platform === 'win32' });
    const name = path.basename(packed.trim().split('\n').pop()!);
    replaceFile(path.join(into, name), readFileSync(path.join(packing, name)));
    return name;
  } finally {
    rmSync(packing, { recursive: true, force: true });
  }
}

function projectName(given: string | true | undefined, target: string): string {
  if (typeof given === 'string') {
    if (given.length <= 214 && packageName.test(given)) return given;
    throw usageError(`Invalid --name ${JSON.stringify(given)}: a package name is lower case, starts with a letter or digit and holds only a-z, 0-9, '.', '_', '~' and '-' (optionally @scope/name).`);
  }
  const derived = path.basename(target).toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._~-]+|-+$/g, '').slice(0, 214);
  return derived || 'mcp-server';
}

/**
 * No folder of `folder` (relative to `target`) is a symbolic link: `--force` in a cloned folder whose `src` names
 * `~/.config` would write the template there. Refused, naming the link.
 */
function checkNoLinkedFolder(dir: string, target: string, folder: string): void {
  let at = target;
  for (const part of folder.split('/').filter((name) => name !== '.' && name !== '')) {
    at = path.join(at, part);
    let linked: boolean;
    try {
      linked = lstatSync(at).isSymbolicLink();
    } catch {
      return; // what does not exist yet is made by this command, a folder
    }
    if (linked) {
      throw new CliError(
        CliErrorCode.Usage,
        `Cannot write into ${path.join(dir, path.relative(target, at))}: it is a symbolic link, and mcp-reflect new never writes through a link (the files would land outside the project).\nRemove the link, or give a new or empty folder.`,
      );
    }
  }
}

/** The folder is new, or empty, or `--force` says to write into it anyway. */
function checkTarget(dir: string, target: string, force: boolean): void {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) {
    throw new CliError(CliErrorCode.Usage, `Cannot create a project in ${dir}: it is a file, not a folder.\nGive the path of a new or empty folder.`);
  }
  const entries = readdirSync(target);
  if (entries.length === 0 || force) return;
  const shown = entries.slice(0, 5).join(', ') + (entries.length > 5 ? `, … (${entries.length} entries)` : '');
  throw new CliError(
    CliErrorCode.Usage,
    `Cannot create a project in ${dir}: the folder is not empty (it holds ${shown}).\n` +
      `Give a new or empty folder, or pass --force to write the template's files into it (files of the same name are replaced, others are kept).`,
  );
}
