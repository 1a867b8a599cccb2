import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { replaceFile } from '../generator';
import { parseArgs, type CommandSpec } from './args';
import { CliError, CliErrorCode, usageError } from './cli.error';
import { readJsonc, setEntry } from './install/config-file';
import { HOSTS, here, type Host, type Scope, type ServerSpec, type Where } from './install/hosts';
import type { CommandOutput } from './output';

export const installSpec: CommandSpec = {
  name: 'install',
  positionals: ['host', 'entry'],
  rest: "the entry's own arguments",
  options: { name: 'value', env: 'list', header: 'list', scope: 'value', config: 'value', 'dry-run': 'flag', help: 'flag' },
};

export const installUsage = `Usage: mcp-reflect install <host> <entry | url> [--name <name>] [--env KEY=VALUE]… [--header 'Name: value']… [--scope user|project] [--config <file>] [--dry-run] [-- <entry's arguments>…]

Registers a server in an MCP host's configuration file, at the place the host documents for this system: a
built entry (a .js file that starts the server on stdio) as a command with absolute paths (this Node's own
executable, the entry's full path, then the arguments given after --), or a Streamable HTTP URL. A host starts
the server from a folder of its own: where its format has a working directory (Gemini CLI's cwd), it is the
entry's project folder. The file is edited in place: its comments, formatting and other entries are kept, and
a file that exists is first copied to <file>.bak.

Hosts: ${HOSTS.map((h) => h.id).join(', ')}

Options:
  --name <name>        the server's name in the file (default: the package name near the entry, or the URL's host)
  --env KEY=VALUE      an environment variable of the stdio server (again for more)
  --header 'N: v'      an HTTP header sent to the URL (again for more)
  --scope user|project where the host keeps it, for hosts with both (default: the host's usual one)
  --config <file>      write this file instead of the host's usual one
  --dry-run            print the file it would write, and write nothing
  --help               show this help
  -- <args>…           the entry's own arguments, written as they are: install claude-desktop dist/main.js -- --stdio`;

export async function installCommand(argv: readonly string[]): Promise<CommandOutput> {
  const { positionals, options, lists, rest } = parseArgs(argv, installSpec);
  if (options.help) return { stdout: installUsage, exitCode: 0 };
  const [hostId, target] = positionals as [string, string];
  const host = HOSTS.find((h) => h.id === hostId);
  if (!host) throw usageError(`Unknown host ${hostId}: mcp-reflect install knows ${HOSTS.map((h) => h.id).join(', ')}.`);
  const where = here();
  const scope = scopeOf(host, options.scope);
  const server = serverOf(target, lists, rest, where);
  const entry = host.entry(server);
  if (typeof entry === 'string') throw usageError(`Cannot install ${target} in ${host.title}: ${entry}`);
  const name = typeof options.name === 'string' ? options.name : defaultName(server, target);
  if (!/^[\w.-]{1,64}$/.test(name)) throw usageError(`Invalid --name ${JSON.stringify(name)}: give 1 to 64 letters, digits, '_', '-' or '.'.`);
  const file = typeof options.config === 'string' ? path.resolve(options.config) : host.file(scope, where);

  // A project's folders come with the project (a cloned repository): a linked `.vscode/` would take the write elsewhere.
  if (scope === 'project' && typeof options.config !== 'string') refuseLinkedFolder(file, where.cwd);
  const real = configTarget(file);
  const existing = readConfig(real);
  const servers = existing.json[host.key] ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new CliError(CliErrorCode.Usage, `Cannot install in ${file}: its "${host.key}" is not an object of servers, so mcp-reflect will not touch it.\nFix it by hand (it should be { "${host.key}": { "<name>": { … } } }), then run this again.`);
  }
  const replaced = Object.hasOwn(servers, name);
  // An existing file is edited in place (its comments, formatting and other entries kept); a new one is laid out anew.
  const text = existing.text?.trim() ? setEntry(existing.text, host.key, name, entry) : `${JSON.stringify({ [host.key]: { [name]: entry } }, null, 2)}\n`;
  if (options['dry-run']) return { stdout: `Would write ${real === file ? file : `${file} (a link to ${real})`}:\n${text}`, exitCode: 0 };

  mkdirSync(path.dirname(real), { recursive: true });
  // Neither file is written through a link: each is written beside its place, then renamed over it (a link at
  // <file>.bak is replaced, its target untouched). A link at <file> is followed on purpose, to the file it names.
  const backup = existing.text !== undefined ? `${file}.bak` : undefined;
  if (backup) replaceFile(backup, existing.text!, existing.mode);
  replaceFile(real, text, existing.mode);
  return {
    stdout: [
      `${replaced ? 'Replaced' : 'Added'} ${name} in ${file} (${host.title}${host.scopes.length > 1 ? `, ${scope} scope` : ''}).`,
      ...(real !== file ? [`${file} is a link: the file it names, ${real}, was written.`] : []),
      ...(backup ? [`The previous file is kept as ${backup}.`] : []),
      `Restart ${host.title} (or reload its MCP servers) to start it.`,
    ].join('\n'),
    exitCode: 0,
  };
}

/** Refuses a project file whose folder, below the project, is a symbolic link (or lies behind one). */
function refuseLinkedFolder(file: string, project: string): void {
  const parts = path.relative(project, path.dirname(file)).split(path.sep).filter((part) => part !== '' && part !== '.');
  if (parts[0] === '..') return;
  let folder = project;
  for (const part of parts) {
    folder = path.join(folder, part);
    let linked = false;
    try {
      linked = lstatSync(folder).isSymbolicLink();
    } catch {
      return; // not there yet: made as a folder
    }
    if (linked) {
      throw new CliError(
        CliErrorCode.Usage,
        `Cannot install in ${file}: the folder ${folder} is a symbolic link (to ${readlinkSync(folder)}), so the file would be written outside the project, and mcp-reflect will not follow it.\nReplace the link with a folder, or give the file to write with --config, then run this again.`,
      );
    }
  }
}

function scopeOf(host: Host, given: string | true | undefined): Scope {
  if (given === undefined) return host.scopes[0]!;
  if (given !== 'user' && given !== 'project') throw usageError(`Invalid --scope ${JSON.stringify(given)}: give user or project.`);
  if (!host.scopes.includes(given)) throw usageError(`${host.title} has no ${given} scope: it keeps its servers in the ${host.scopes.join(' or ')} configuration.`);
  return given;
}

function serverOf(target: string, lists: Readonly<Record<string, readonly string[]>>, rest: readonly string[], where: Where): ServerSpec {
  const pairs = (values: readonly string[] | undefined, separator: RegExp, what: string) =>
    Object.fromEntries(
      (values ?? []).map((pair) => {
        const match = separator.exec(pair);
        if (!match) throw usageError(`Invalid ${what} ${JSON.stringify(pair)}: give ${what === '--env' ? 'KEY=VALUE' : "'Name: value'"}.`);
        return [match[1]!, match[2]!];
      }),
    );
  if (/^https?:\/\//i.test(target)) {
    if (!URL.canParse(target)) throw usageError(`Invalid URL ${target}: give the server's Streamable HTTP endpoint, e.g. https://mcp.example.com/mcp.`);
    if (rest.length > 0) throw usageError(`Cannot pass arguments (${rest.join(' ')}) to ${target}: a URL is reached, not started. Give them to the server where it runs.`);
    return { kind: 'http', url: target, headers: pairs(lists.header, /^([!#$%&'*+.^_`|~\w-]+):\s*(.*)$/, '--header') };
  }
  const entry = path.resolve(where.cwd, target);
  if (!existsSync(entry)) throw new CliError(CliErrorCode.EntryNotFound, `Cannot find the entry file ${target} (looked at ${entry}).\nGive the built file that starts the server on stdio, e.g. \`mcp-reflect install claude-desktop dist/main.js\`.`);
  if (/\.[cm]?tsx?$/.test(entry)) throw usageError(`Cannot install ${target}: a host runs a built file. Build first (npm run build) and give the .js file, e.g. dist/main.js.`);
  // The absolute path of this Node (not `node`): a host starts servers without the user's shell, nvm or PATH, so
  // `node` may be missing there or another version. The entry's absolute path: a host starts it from its own folder.
  const env = pairs(lists.env, /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s, '--env');
  return { kind: 'stdio', command: process.execPath, args: [entry, ...rest], env, cwd: projectOf(entry)?.dir ?? path.dirname(entry) };
}

/** The entry's project: the nearest folder above it whose package.json has a name (a `{ "type": … }` marker in dist/ is not one). */
function projectOf(entry: string): { dir: string; name: string } | undefined {
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
      if (typeof name === 'string' && name !== '') return { dir, name };
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

function defaultName(server: ServerSpec, target: string): string {
  if (server.kind === 'http') return new URL(server.url).hostname.replace(/[^\w.-]/g, '-');
  const name = projectOf(server.args[0]!)?.name;
  return name ? name.replace(/^@[^/]+\//, '').replace(/[^\w.-]/g, '-') : path.basename(target).replace(/\.[cm]?js$/, '');
}

/** The most a host's configuration file may hold: anything larger is not one (or is a device behind a link). */
const MAX_CONFIG_BYTES = 8 * 1024 * 1024;

/**
 * The file to write for `file`: itself, or the file a symbolic link there names (written through on purpose: a
 * configuration kept in a dotfiles folder stays a link). A link to nothing, or to anything but a regular file
 * (a folder, a device, a pipe), is refused with the reason, and so is a file too large to be a configuration.
 */
function configTarget(file: string): string {
  let stats;
  try {
    stats = lstatSync(file);
  } catch {
    return file;
  }
  const refuse = (why: string, fix: string) => new CliError(CliErrorCode.Usage, `Cannot install in ${file}: ${why}, so mcp-reflect will not touch it.\n${fix}`);
  let real = file;
  if (stats.isSymbolicLink()) {
    try {
      real = realpathSync(file);
      stats = statSync(real);
    } catch {
      throw refuse('it is a symbolic link to a file that does not exist', 'Remove the link (or create the file it names), then run this again.');
    }
  }
  const what = real === file ? 'it' : `it is a link to ${real}, which`;
  if (!stats.isFile()) throw refuse(`${what} is not a regular file`, 'Give a JSON file with --config, or move this one away, then run this again.');
  if (stats.size > MAX_CONFIG_BYTES) throw refuse(`${what} holds ${stats.size} bytes, more than a host configuration (${MAX_CONFIG_BYTES})`, 'Check that this is the file you mean, or give another with --config.');
  return real;
}

/**
 * The host's file as JSON (`{}` when there is none; comments and trailing commas allowed), its text and its
 * permissions; malformed, it is refused with its line and column and the reason, untouched.
 */
function readConfig(file: string): { json: Record<string, unknown>; text?: string; mode?: number } {
  if (!existsSync(file)) return { json: {} };
  const text = readFileSync(file, 'utf8');
  const mode = statSync(file).mode & 0o777;
  if (text.trim() === '') return { json: {}, text, mode };
  const read = readJsonc(text);
  if ('json' in read) return { json: read.json, text, mode };
  const { line, column, reason } = read.problem;
  throw new CliError(
    CliErrorCode.Usage,
    `Cannot install in ${file}${line ? `:${line}:${column}` : ''}: it is not valid JSON (${reason}), so mcp-reflect will not touch it.\nFix the file at that place (comments and trailing commas are fine), or move it away, then run this again.`,
  );
}
