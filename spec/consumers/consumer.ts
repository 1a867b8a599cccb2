import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The consumer matrix's tools: fresh projects in empty folders, made from the packed tarball and the files the
 * docs give, with packages from the npm registry (at the versions this repository uses, so that
 * `--prefer-offline` finds them in the npm cache) and nothing of the repository's own node_modules.
 */
export const root = path.resolve(__dirname, '..', '..');
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };

/**
 * Child processes see neither this jest worker nor the npm script running it (npm's `local_prefix` would point a
 * nested `npm install` at this repository); the npm configuration itself (cache, registry) is kept.
 */
export const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(JEST_|npm_package_|npm_lifecycle_)/.test(key) && !['npm_config_local_prefix', 'npm_command', 'NODE_OPTIONS'].includes(key),
  ),
) as Record<string, string>;

/** `name@version` at the version of this repository's devDependencies (or of the tools/ folder named). */
export function pinned(name: string, folder?: string): string {
  const versions = folder ? (JSON.parse(readFileSync(path.join(root, 'tools', folder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies : manifest.devDependencies;
  const version = versions[name];
  if (!version) throw new Error(`${folder ? `tools/${folder}/package.json` : 'package.json'} pins no ${name}`);
  return `${name}@${version}`;
}

/** The packages docs/setup.md and docs/testing.md ask a consumer to install beside mcp-reflect. */
export const basePackages = ['reflect-metadata', 'class-validator', 'class-transformer', 'typescript', '@types/node'].map((name) => pinned(name));
export const jestPackages = [pinned('jest'), `@jest/globals@${manifest.devDependencies.jest}`, pinned('@swc/core'), pinned('@swc/jest')];

export async function runAsync(cmd: string, args: string[], cwd: string, env: Record<string, string> = childEnv): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(cmd, args, { cwd, encoding: 'utf8', env, maxBuffer: 32 * 1024 * 1024, timeout: 300_000 });
    return stdout;
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}: ${message}\n${stdout ?? ''}\n${stderr ?? ''}`.slice(0, 8000));
  }
}

/** `npm pack` of the build in dist/ (the global set-up's), into `dir`; the tarball's path. */
export async function pack(dir: string): Promise<string> {
  // Not `prepack`: dist/ is the global set-up's build, which other specs read while this one runs.
  await runAsync(npm, ['pack', '--ignore-scripts', '--pack-destination', dir, '--silent'], root);
  const name = readdirSync(dir).find((file) => /^mcp-reflect-.*\.tgz$/.test(file));
  if (!name) throw new Error(`npm pack wrote no tarball into ${dir}`);
  return path.join(dir, name);
}

/** Writes `files` (relative path → content) into `dir`, then installs the tarball and `packages` there. */
export async function makeProject(dir: string, tarball: string, files: Record<string, string>, packages: string[]): Promise<void> {
  writeFiles(dir, files);
  await runAsync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...packages], dir);
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
}

/** A file a doc page gives in full: the code block right after `<!-- file: path -->` or `<!-- file: path (Kind) -->`. */
export function docFiles(page: string, kind?: string): Record<string, string> {
  const markdown = readFileSync(path.join(root, 'docs', page), 'utf8');
  const found = [...markdown.matchAll(/<!-- file: (\S+)(?: \(([^)]+)\))? -->\n```\w*\n([\s\S]*?)\n```/g)];
  return Object.fromEntries(found.filter(([, , of]) => of === undefined || of === kind).map(([, file, , content]) => [file!, `${content}\n`]));
}

/** The `ts` block of a docs page whose first line is `// <file>` (a complete example, docs/docs-examples.spec.ts). */
export function docExample(page: string, file: string): string {
  const markdown = readFileSync(path.join(root, 'docs', page), 'utf8');
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const block = new RegExp('```ts\\n(// ' + escaped + '(?: \\([^)]*\\))?\\n[\\s\\S]*?)\\n```').exec(markdown);
  if (!block) throw new Error(`docs/${page} has no complete example // ${file}`);
  return `${block[1]}\n`;
}

/** Starts a server process; resolves with the first match of `ready` in its output, and the process. */
export function start(command: string, args: string[], cwd: string, ready: RegExp, env: Record<string, string> = childEnv): Promise<{ match: RegExpExecArray; child: ChildProcess; output: () => string }> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(' ')} printed nothing matching ${ready} within 90 s:\n${seen.slice(-3000)}`)), 90_000);
    const read = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = ready.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ match, child, output: () => seen });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited (${code}):\n${seen.slice(-3000)}`));
    });
  });
}

/** Ends a process started by `start` and its process group (wrangler runs workerd as a child of its own). */
export function stop(child: ChildProcess | undefined): void {
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}
