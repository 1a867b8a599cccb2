import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';
import { CliError, CliErrorCode, usageError } from './cli.error';

/**
 * The official MCP Inspector (`@modelcontextprotocol/inspector`) for `mcp-reflect dev --inspect`: never a
 * dependency of mcp-reflect, installed on first use (this exact version) into a cache folder the CLI owns, and
 * run on a Node it supports, on loopback, with its own API token on, pointed at the dev server.
 */
export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector';
export const INSPECTOR_VERSION = '2.12.0';
/** The Inspector's `engines.node` (>=22.19.0). */
const NODE_FLOOR: readonly [number, number] = [22, 19];
/** How long a first install may take before it is given up. */
const INSTALL_MS = 5 * 60_000;
/** How long the Inspector may take to say it listens. */
const START_MS = 60_000;
/** How long its process group may take to end after SIGTERM; then SIGKILL. */
const STOP_MS = 5_000;

/** The folder the Inspector is installed into: MCP_REFLECT_CACHE_DIR, else $XDG_CACHE_HOME or ~/.cache, then mcp-reflect/. */
export function inspectorCacheFolder(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const cache = env.MCP_REFLECT_CACHE_DIR || path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'mcp-reflect');
  return path.join(cache, `inspector-${INSPECTOR_VERSION}`);
}

/**
 * The Node the Inspector runs on: `given` (--inspector-node), else this process's. One older than the Inspector's
 * floor is a usage error saying what to do, before anything starts.
 */
export function inspectorNode(given: string | undefined): string {
  const node = given ? path.resolve(given) : process.execPath;
  const version = given ? spawnSync(node, ['--version'], { encoding: 'utf8', timeout: 10_000 }).stdout?.trim() : process.version;
  const match = /^v(\d+)\.(\d+)\./.exec(version ?? '');
  if (!match) throw usageError(`Cannot run --inspector-node ${given}: \`${node} --version\` did not print a Node version. Give the path of a Node 22.19 or later binary.`);
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (major > NODE_FLOOR[0] || (major === NODE_FLOOR[0] && minor >= NODE_FLOOR[1])) return node;
  const which = given ? `--inspector-node ${given} is Node ${version}` : `this is Node ${version}`;
  throw usageError(
    `The MCP Inspector ${INSPECTOR_VERSION} needs Node 22.19 or later, and ${which}.\nRun dev with Node 22.19+ (\`npx mcp-reflect dev --inspect\` under it), or keep this Node for the server and give the Inspector another: --inspector-node /path/to/node22/bin/node.`,
  );
}

/** The installed Inspector's version in `folder` (node_modules/@modelcontextprotocol/inspector), if any. */
function installedVersion(folder: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(folder, 'node_modules', INSPECTOR_PACKAGE, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function launcherIn(folder: string): string {
  return path.join(folder, 'node_modules', INSPECTOR_PACKAGE, 'clients', 'launcher', 'build', 'index.js');
}

/**
 * The launcher of the Inspector installed in `folder` (--inspector-dir: installed there by the user, never by
 * the CLI); a CliError naming the fix when it holds none of the pinned version.
 */
export function installedInspector(folder: string): string {
  const found = installedVersion(folder);
  if (found === INSPECTOR_VERSION) return launcherIn(folder);
  throw new CliError(
    CliErrorCode.InspectorUnavailable,
    `${folder} holds ${found ? `the MCP Inspector ${found}` : 'no MCP Inspector'} (node_modules/${INSPECTOR_PACKAGE}); dev --inspect runs ${INSPECTOR_VERSION}.\nInstall it there (npm install --prefix ${folder} --no-save ${INSPECTOR_PACKAGE}@${INSPECTOR_VERSION}), or leave out --inspector-dir to have dev install it into its cache.`,
  );
}

/**
 * The launcher of the Inspector in the CLI's cache `folder`, installed first when it is not there: with npm, asking
 * nothing (stdin closed, no scripts: its postinstall does nothing in an install), into a folder beside it renamed
 * into place once complete, so an interrupted or concurrent install never leaves half of one. A failure (no
 * network, no registry, no npm) is a CliError naming the cause and the fix; so is `signal` aborting it (dev
 * stopped meanwhile), which ends npm at once.
 */
export async function ensureInspector(folder: string, say: (line: string) => void, signal?: AbortSignal): Promise<string> {
  if (installedVersion(folder) === INSPECTOR_VERSION) return launcherIn(folder);
  const spec = `${INSPECTOR_PACKAGE}@${INSPECTOR_VERSION}`;
  const manual = `npm install --prefix ${folder} ${spec}`;
  say(`installing the MCP Inspector ${INSPECTOR_VERSION} into ${folder} (first use; npm)`);
  const staging = `${folder}.installing-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify({ name: 'mcp-reflect-inspector-cache', private: true, description: 'Installed by mcp-reflect dev --inspect; safe to delete.' }, null, 2)}\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', staging, '--save-exact', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', spec];
  const result = await new Promise<{ code: number | null; output: string; error?: Error }>((resolve) => {
    let output = '';
    const child = spawn(npm, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32', env: { ...process.env, npm_config_yes: 'true', npm_config_update_notifier: 'false' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_MS);
    const abort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', abort, { once: true });
    child.once('close', () => signal?.removeEventListener('abort', abort));
    child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output, error });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
  if (signal?.aborted || result.code !== 0 || installedVersion(staging) !== INSPECTOR_VERSION) {
    rmSync(staging, { recursive: true, force: true });
    if (signal?.aborted) throw new CliError(CliErrorCode.InspectorUnavailable, `The install of the MCP Inspector ${INSPECTOR_VERSION} was stopped with dev; it runs again on the next dev --inspect.`);
    const said = (result.error?.message ?? result.output).trim().split('\n').filter(Boolean).slice(-4).join('\n  ');
    throw new CliError(
      CliErrorCode.InspectorUnavailable,
      `Cannot install the MCP Inspector ${INSPECTOR_VERSION} (npm ${result.code === null ? 'did not finish' : `exited with ${result.code}`}):\n  ${said || 'no output'}\nCheck the network and the registry npm uses (\`npm config get registry\`), then run dev --inspect again, or install it yourself: ${manual}`,
    );
  }
  mkdirSync(path.dirname(folder), { recursive: true });
  // An incomplete copy of an earlier run (the cache is the CLI's own) gives way.
  if (installedVersion(folder) !== INSPECTOR_VERSION) rmSync(folder, { recursive: true, force: true });
  try {
    renameSync(staging, folder);
  } catch (error) {
    // Another dev installed it meanwhile: that copy is used, this one dropped.
    rmSync(staging, { recursive: true, force: true });
    if (installedVersion(folder) !== INSPECTOR_VERSION) throw new CliError(CliErrorCode.InspectorUnavailable, `Cannot move the installed MCP Inspector into ${folder}: ${(error as Error).message}. Remove that folder and run again.`);
  }
  return launcherIn(folder);
}

/** A loopback port free now: the Inspector's web server takes no port 0 (its origin allow-list is derived from it). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface InspectorOptions {
  readonly node: string;
  readonly launcher: string;
  /** The dev server's Streamable HTTP endpoint. */
  readonly serverUrl: string;
  readonly say: (line: string) => void;
}

export interface RunningInspector {
  /** The page to open, with the Inspector's API token as it reads it (`?MCP_INSPECTOR_API_TOKEN=`). */
  readonly url: string;
  /** Ends the Inspector's process group (SIGTERM, SIGKILL after STOP_MS), resolved once it is gone. */
  stop(): Promise<void>;
}

/**
 * Runs the Inspector's launcher in a process that ends when dev does: its stdin (a pipe from dev) closing means
 * dev is gone, killed outright included, when no signal reached this process group of its own.
 */
const HOST_SCRIPT = [
  "const { pathToFileURL } = require('node:url');",
  'const launcher = process.argv[1];',
  "process.stdin.on('end', () => process.exit(0)).on('error', () => process.exit(0)).resume();",
  'process.argv = [process.argv[0], launcher, ...process.argv.slice(2)];',
  'import(pathToFileURL(launcher).href);',
].join('\n');

/** The variables that would loosen the Inspector's guards, never passed on to it. */
const LOOSENING = ['DANGEROUSLY_OMIT_AUTH', 'MCP_INSPECTOR_BIND_ALL_INTERFACES', 'ALLOWED_ORIGINS', 'MCP_INSPECTOR_ALLOWED_HOSTS', 'MCP_PROXY_AUTH_TOKEN', 'MCP_INSPECTOR_API_TOKEN', 'MCP_SANDBOX_FULL_ADDRESS', 'MCP_APP_ORIGIN_FULL_ADDRESS', 'HOST', 'CLIENT_PORT', 'SERVER_PORT'];

/**
 * Starts the Inspector's web UI on 127.0.0.1 (a free port; its MCP Apps sandbox and app origin on OS-picked ones)
 * with a fresh API token, no browser opened, its server list seeded with the dev server in the 2026-07-28 era (no
 * session, so a restarted server needs no reconnect), in a process group of its own that stop() ends.
 */
export async function startInspector(options: InspectorOptions): Promise<RunningInspector> {
  for (let attempt = 1; ; attempt++) {
    const port = await freeLoopbackPort();
    try {
      return await startOn(port, options);
    } catch (error) {
      // Taken between the probe and the Inspector's bind: once more on another port.
      if (attempt >= 2 || !(error instanceof PortTaken)) throw error;
    }
  }
}

class PortTaken extends Error {}

function startOn(port: number, options: InspectorOptions): Promise<RunningInspector> {
  const token = randomBytes(32).toString('hex');
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of LOOSENING) delete env[name];
  Object.assign(env, {
    HOST: '127.0.0.1',
    CLIENT_PORT: String(port),
    MCP_SANDBOX_PORT: '0',
    MCP_APP_ORIGIN_PORT: '0',
    MCP_INSPECTOR_API_TOKEN: token,
    MCP_AUTO_OPEN_ENABLED: 'false',
    MCP_INSPECTOR_SECRET_STORE: env.MCP_INSPECTOR_SECRET_STORE ?? 'memory',
  });
  const args = ['-e', HOST_SCRIPT, options.launcher, '--web', '--transport', 'http', '--server-url', options.serverUrl, '--protocol-era', 'modern'];
  // stdin is a pipe dev never writes to: it closes when dev is gone, however (SIGKILL included).
  const child = spawn(options.node, args, { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  const endGroup = () => signalGroup(child, 'SIGKILL');
  process.once('exit', endGroup);
  let output = '';
  const url = `http://127.0.0.1:${port}/?MCP_INSPECTOR_API_TOKEN=${token}`;
  let stopping = false;
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      stopping = true;
      process.off('exit', endGroup);
      if (child.exitCode !== null || child.signalCode !== null) {
        signalGroup(child, 'SIGKILL'); // whatever it left behind
        return resolve();
      }
      const kill = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_MS);
      child.once('exit', () => {
        clearTimeout(kill);
        signalGroup(child, 'SIGKILL');
        resolve();
      });
      signalGroup(child, 'SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new CliError(CliErrorCode.InspectorUnavailable, `The MCP Inspector did not start within ${START_MS / 1000} s:\n${output.trim().slice(-2000)}`));
    }, START_MS);
    let up = false;
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (!up && output.includes('is up and running')) {
        up = true;
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({ url, stop });
      }
    };
    child.stdout!.on('data', read);
    // Its warnings and errors reach the terminal, marked as its own.
    child.stderr!.on('data', (chunk: Buffer) => {
      if (!up) output += chunk.toString();
      for (const line of chunk.toString().split('\n')) if (line.trim() && !QUIET.test(line)) options.say(`[inspector] ${line}`);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      process.off('exit', endGroup);
      reject(new CliError(CliErrorCode.InspectorUnavailable, `Cannot run the MCP Inspector with ${options.node}: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      process.off('exit', endGroup);
      if (up) {
        if (!stopping) options.say(`the MCP Inspector exited (${signal ?? `code ${code}`}); the server goes on`);
        return;
      }
      clearTimeout(timer);
      signalGroup(child, 'SIGKILL');
      if (output.includes('PORT IS IN USE')) return reject(new PortTaken());
      reject(new CliError(CliErrorCode.InspectorUnavailable, `The MCP Inspector exited before it started (${signal ?? `code ${code}`}):\n${output.trim().slice(-2000)}`));
    });
  });
}

/** The Inspector's notices about the in-memory secret store dev chose for it: not news to the user. */
const QUIET = /Secrets are not written anywhere|How the secret store is chosen/;

/** Sends `signal` to the process group `child` leads (it was spawned detached); nothing when it is gone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? child.pid : -child.pid, signal);
  } catch {
    // ESRCH: nothing of the group is left.
  }
}
