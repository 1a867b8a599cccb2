import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type CommandSpec } from './args';
import { CliError, CliErrorCode, usageError } from './cli.error';
import { projectFiles } from './new/templates';
import type { CommandOutput } from './output';
import { createProgress, type CliIo } from './progress';

export const newSpec: CommandSpec = { name: 'new', positionals: ['dir'], options: { name: 'value', force: 'flag', quiet: 'flag', help: 'flag' } };

export const newUsage = `Usage: mcp-reflect new <dir> [--name <package-name>] [--force]

Creates a project in <dir> (made if missing): a stdio MCP server with one sample tool class and its spec,
compiled by TypeScript 7 (the tsconfig of docs/setup.md) and tested by jest through @swc/jest (docs/testing.md).
Then: cd <dir>, npm install, npm test.

Options:
  --name <name>  the package and server name (default: the folder's name, lower-cased, other characters as -)
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

  const progress = createProgress(io.stderr, { quiet: options.quiet === true });
  progress.update(`Creating ${name} in ${target}`);
  const files = projectFiles(name);
  for (const file of files) {
    progress.update(`Writing ${file.path}`);
    const destination = path.join(target, ...file.path.split('/'));
    mkdirSync(path.dirname(destination), { recursive: true });
    writeFileSync(destination, file.content);
  }
  progress.done();

  const cd = target === process.cwd() ? '.' : dir;
  return {
    stdout: [
      `Created ${name} in ${target}:`,
      ...files.map((file) => `  ${file.path}`),
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

function projectName(given: string | true | undefined, target: string): string {
  if (typeof given === 'string') {
    if (given.length <= 214 && packageName.test(given)) return given;
    throw usageError(`Invalid --name ${JSON.stringify(given)}: a package name is lower case, starts with a letter or digit and holds only a-z, 0-9, '.', '_', '~' and '-' (optionally @scope/name).`);
  }
  const derived = path.basename(target).toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._~-]+|-+$/g, '').slice(0, 214);
  return derived || 'mcp-server';
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
