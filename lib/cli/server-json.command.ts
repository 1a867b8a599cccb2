import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readOwnFile, replaceFile } from '../generator';
import { parseArgs, type CommandSpec } from './args';
import { CliError, CliErrorCode, usageError } from './cli.error';
import type { CommandOutput } from './output';
import { REGISTRY_SERVER_SCHEMA } from './registry-schema.generated';

/** The `$schema` every written server.json names: the registry's schema this command validates against. */
export const REGISTRY_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

export const serverJsonSpec: CommandSpec = {
  name: 'server-json',
  positionals: [],
  options: {
    package: 'value',
    remote: 'value',
    name: 'value',
    description: 'value',
    version: 'value',
    env: 'list',
    'secret-env': 'list',
    arg: 'list',
    header: 'list',
    'secret-header': 'list',
    out: 'value',
    'dry-run': 'flag',
    help: 'flag',
  },
};

export const serverJsonUsage = `Usage: mcp-reflect server-json [--package <dir>] [--remote <url>] [--name <io.github.owner/name>] [--description <text>] [--version <x.y.z>] [--env NAME]… [--secret-env NAME]… [--arg VALUE]… [--header NAME]… [--secret-header NAME]… [--out server.json] [--dry-run]

Writes the server.json the MCP Registry publishes a server from (\`mcp-publisher publish\`), checked against the
registry's schema 2025-12-11 before anything is written. Two forms:

  package form (default)   the npm package of <dir>/package.json, run by the client over stdio (npx):
                           its name, version, description, homepage and GitHub repository
  remote form (--remote)   a Streamable HTTP endpoint the client connects to

The server's name is --name, else package.json's "mcpName" (which the registry also checks on npm), else
io.github.<owner>/<repository> from a GitHub repository in package.json.

Options:
  --package <dir>         the folder of package.json (default: the current folder)
  --remote <url>          the remote form: the server's Streamable HTTP URL (https://…)
  --name <name>           the registry name: reverse-DNS with one slash, e.g. io.github.acme/weather
  --description <text>    1 to 100 characters (default: package.json's description)
  --version <x.y.z>       one exact version (default: package.json's version)
  --env NAME              an environment variable the client must set (package form; again for more)
  --secret-env NAME       the same, marked secret (an API key)
  --arg VALUE             an argument after the package on the command line (package form), e.g. --arg --stdio
  --header NAME           an HTTP header the client must send (remote form; again for more)
  --secret-header NAME    the same, marked secret (Authorization)
  --out <file>            the file to write (default server.json)
  --dry-run               print the server.json, and write nothing
  --help                  show this help`;

interface PackageJson {
  name?: unknown;
  version?: unknown;
  description?: unknown;
  homepage?: unknown;
  mcpName?: unknown;
  repository?: unknown;
}

const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export async function serverJsonCommand(argv: readonly string[]): Promise<CommandOutput> {
  const { options, lists } = parseArgs(argv, serverJsonSpec);
  if (options.help) return { stdout: serverJsonUsage, exitCode: 0 };
  const remote = typeof options.remote === 'string' ? options.remote : undefined;
  const pkg = readPackage(typeof options.package === 'string' ? options.package : '.', remote === undefined);
  if (remote !== undefined && (lists.env || lists['secret-env'] || lists.arg)) {
    throw usageError('--env, --secret-env and --arg describe how a client runs the npm package: they belong to the package form, not to --remote.');
  }
  if (remote === undefined && (lists.header || lists['secret-header'])) {
    throw usageError('--header and --secret-header describe what a client sends to a remote server: give --remote <url> with them.');
  }
  const name = typeof options.name === 'string' ? options.name : (stringOf(pkg.mcpName) ?? githubName(pkg.repository));
  if (name === undefined) {
    throw usageError('server-json needs the server\'s registry name: give --name io.github.<owner>/<name>, or add "mcpName" to package.json.');
  }
  if (!NAME.test(name) || name.length < 3 || name.length > 200) {
    throw usageError(`Invalid --name ${JSON.stringify(name)}: a registry name is reverse-DNS with exactly one slash (letters, digits, '.', '-', '_'), e.g. io.github.acme/weather.`);
  }
  const description = typeof options.description === 'string' ? options.description : stringOf(pkg.description);
  if (description === undefined || description.length === 0) throw usageError('server-json needs a description: give --description, or a "description" in package.json.');
  if (description.length > 100) {
    throw usageError(`The description is ${description.length} characters; the registry takes at most 100: give a shorter one with --description.`);
  }
  const version = typeof options.version === 'string' ? options.version : stringOf(pkg.version);
  if (version === undefined) throw usageError('server-json needs a version: give --version, or a "version" in package.json.');
  if (/^[\^~><=]|\.[x*](\.|$)|^[x*]$|^latest$/.test(version)) throw usageError(`Invalid version ${JSON.stringify(version)}: the registry takes one exact version (e.g. 1.2.3), not a range.`);

  const document: Record<string, unknown> = {
    $schema: REGISTRY_SCHEMA_URL,
    name,
    description,
    version,
    ...(githubRepository(pkg.repository) ? { repository: githubRepository(pkg.repository) } : {}),
    ...(typeof pkg.homepage === 'string' && /^https?:\/\//.test(pkg.homepage) ? { websiteUrl: pkg.homepage } : {}),
  };
  if (remote !== undefined) {
    if (!URL.canParse(remote) || !/^https?:$/.test(new URL(remote).protocol)) throw usageError(`Invalid --remote ${JSON.stringify(remote)}: give the server's Streamable HTTP URL, e.g. https://mcp.example.com/mcp.`);
    const headers = [...inputs(lists.header, false, HEADER_NAME, '--header'), ...inputs(lists['secret-header'], true, HEADER_NAME, '--secret-header')];
    document.remotes = [{ type: 'streamable-http', url: remote, ...(headers.length > 0 ? { headers } : {}) }];
  } else {
    const identifier = stringOf(pkg.name);
    if (identifier === undefined) throw usageError('The package form needs the npm package\'s "name" in package.json (or give --remote <url> for a remote server).');
    const env = [...inputs(lists.env, false, ENV_NAME, '--env'), ...inputs(lists['secret-env'], true, ENV_NAME, '--secret-env')];
    const args = (lists.arg ?? []).map((value) => ({ type: 'positional', value }));
    document.packages = [
      {
        registryType: 'npm',
        identifier,
        version,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        ...(args.length > 0 ? { packageArguments: args } : {}),
        ...(env.length > 0 ? { environmentVariables: env } : {}),
      },
    ];
  }
  checkAgainstSchema(document);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (options['dry-run']) return { stdout: text.trimEnd(), exitCode: 0 };
  const out = path.resolve(typeof options.out === 'string' ? options.out : 'server.json');
  const where = path.relative(process.cwd(), out) || out;
  const same = readOwnFile(out) === text;
  mkdirSync(path.dirname(out), { recursive: true });
  replaceFile(out, text);
  return { stdout: `${same ? 'Unchanged:' : 'Wrote'} ${where} (${name} ${version}, ${remote !== undefined ? `remote ${remote}` : `npm package ${stringOf(pkg.name)} over stdio`}).`, exitCode: 0 };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function readPackage(dir: string, required: boolean): PackageJson {
  const file = path.resolve(dir, 'package.json');
  if (!existsSync(file)) {
    if (required) throw usageError(`No package.json in ${path.dirname(file)}: the package form describes an npm package. Give --package <dir>, or --remote <url> for a remote server.`);
    return {};
  }
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('it is not a JSON object');
    return parsed as PackageJson;
  } catch (error) {
    throw new CliError(CliErrorCode.Usage, `Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}.\nFix the file, or point --package at another folder.`);
  }
}

/** `https://github.com/<owner>/<repo>` of package.json's repository (a string or `{ url }`, `git+…`/`.git` forms), if it is on GitHub. */
function githubRepository(repository: unknown): { url: string; source: 'github' } | undefined {
  const raw = typeof repository === 'string' ? repository : stringOf((repository as { url?: unknown } | undefined)?.url);
  if (raw === undefined) return undefined;
  const match = /^(?:git\+)?(?:https?|ssh|git):\/\/(?:git@)?github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(raw) ?? /^(?:github:)?([\w.-]+)\/([\w.-]+)$/.exec(raw);
  return match ? { url: `https://github.com/${match[1]}/${match[2]}`, source: 'github' } : undefined;
}

/** The registry's name for a GitHub-hosted server (`io.github.<owner>/<repo>`, what GitHub login lets you publish). */
function githubName(repository: unknown): string | undefined {
  const repo = githubRepository(repository);
  if (!repo) return undefined;
  const [, owner, name] = /github\.com\/([^/]+)\/([^/]+)$/.exec(repo.url)!;
  return `io.github.${owner}/${name}`;
}

function inputs(names: readonly string[] | undefined, secret: boolean, pattern: RegExp, option: string): Record<string, unknown>[] {
  return (names ?? []).map((name) => {
    if (!pattern.test(name)) throw usageError(`Invalid ${option} ${JSON.stringify(name)}: give a name only (${option === '--env' || option === '--secret-env' ? 'e.g. API_KEY' : 'e.g. Authorization'}); the client asks for its value.`);
    return { name, isRequired: true, ...(secret ? { isSecret: true } : {}) };
  });
}

/** The registry's own check, before anything is written: a server.json it would refuse is never written. */
function checkAgainstSchema(document: Record<string, unknown>): void {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(REGISTRY_SERVER_SCHEMA);
  if (validate(document)) return;
  const issues = (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message}`);
  throw new CliError(
    CliErrorCode.Usage,
    `The server.json would not pass the registry's schema (${REGISTRY_SCHEMA_URL}): ${[...new Set(issues)].join('; ')}.\nFix the option or package.json field named, then run this again.`,
  );
}
