import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { parseArgs, type CommandSpec } from './args';
import { CliError, CliErrorCode, usageError } from './cli.error';
import { generateCommand } from './generate.command';
import { ensureInspector, inspectorCacheFolder, inspectorNode, installedInspector, INSPECTOR_PACKAGE, INSPECTOR_VERSION, startInspector, type RunningInspector } from './inspector';
import { findMetadataFile } from './metadata-file';
import type { CommandOutput } from './output';
import type { CliIo } from './progress';

export const devSpec: CommandSpec = {
  name: 'dev',
  positionals: ['entry'],
  options: { port: 'value', host: 'value', module: 'value', metadata: 'value', stateless: 'flag', watch: 'value', inspect: 'flag', 'inspector-node': 'value', 'inspector-dir': 'value', help: 'flag' },
};

export const devUsage = `Usage: mcp-reflect dev <entry> [--port 3000] [--host 127.0.0.1] [--stateless] [--watch <folder>] [--module <Name>] [--metadata <file>]
                        [--inspect [--inspector-node <path>] [--inspector-dir <folder>]]

Serves the root module of <entry> (a .ts file, compiled with the project's @swc/core, or a built .js) over
Streamable HTTP at http://<host>:<port>/mcp, and restarts it when a file under the watched folder changes:
first \`mcp-reflect generate\` when the project has a generated types file, then a new server on the same port.
2026-07-28 clients and --stateless ones keep working across restarts; 2025-11-25 session clients are told
their session ended (HTTP 404) and open a new one. A server that fails to start is reported, and dev waits for
the next change. Ctrl-C stops it.

With --inspect, dev also starts the official MCP Inspector web UI (${INSPECTOR_PACKAGE} ${INSPECTOR_VERSION},
installed on first use into ~/.cache/mcp-reflect, or MCP_REFLECT_CACHE_DIR) on 127.0.0.1 with its API token on,
connected to the server in the 2026-07-28 era (no session: it keeps working across restarts), and prints its URL.
It needs Node 22.19 or later: dev's own, or the one given with --inspector-node.

Options:
  --port <n>         the port (default 3000; 0: a free one, kept across restarts)
  --host <host>      the address to bind (default 127.0.0.1)
  --stateless        serve without sessions
  --watch <folder>   the folder to watch (default: the entry's top folder in its project, e.g. src)
  --module <Name>    the exported root module class, when the entry exports several @Module() classes
  --metadata <file>  the generated types to load (default: found as inspect finds them)
  --inspect          start the MCP Inspector web UI on the server (not opened: open the printed URL)
  --inspector-node <path>   the Node 22.19+ the Inspector runs on (default: the one running dev)
  --inspector-dir <folder>  a folder where the Inspector ${INSPECTOR_VERSION} is installed (default: the cache, installed on first use)
  --help             show this help`;

const RUNNER = path.join(__dirname, `dev-runner${path.extname(__filename)}`);
const IGNORED = /(^|[\\/])(node_modules|\.git|dist|coverage)([\\/]|$)/;

export async function devCommand(argv: readonly string[], io: CliIo = { stderr: process.stderr }): Promise<CommandOutput> {
  const { positionals, options } = parseArgs(argv, devSpec);
  if (options.help) return { stdout: devUsage, exitCode: 0 };
  const entry = path.resolve(positionals[0]!);
  if (!existsSync(entry)) throw new CliError(CliErrorCode.EntryNotFound, `Cannot find the entry file ${positionals[0]} (looked at ${entry}).\nGive the file that exports your root module, e.g. \`mcp-reflect dev src/app.module.ts\`.`);
  const port = Number(options.port ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usageError(`Invalid --port ${JSON.stringify(options.port)}: give a port from 0 to 65535.`);
  const folder = typeof options.watch === 'string' ? path.resolve(options.watch) : watchedFolder(entry);
  if (!existsSync(folder)) throw usageError(`Cannot watch ${folder}: it does not exist. Give a folder of the project with --watch <folder>.`);
  const say = (line: string) => io.stderr.write(`[mcp-reflect dev] ${line}\n`);
  const metadataFile = typeof options.metadata === 'string' ? path.resolve(options.metadata) : findMetadataFile(entry);
  const inspect = options.inspect === true;
  for (const name of ['inspector-node', 'inspector-dir']) if (options[name] !== undefined && !inspect) throw usageError(`--${name} goes with --inspect: add --inspect, or leave it out.`);
  // Before anything starts: a Node the Inspector cannot run on, or a given folder without it, is said at once.
  const node = inspect ? inspectorNode(typeof options['inspector-node'] === 'string' ? options['inspector-node'] : undefined) : undefined;
  const givenLauncher = inspect && typeof options['inspector-dir'] === 'string' ? installedInspector(path.resolve(options['inspector-dir'])) : undefined;
  const job: { entry: string; moduleName?: string; metadata?: string; host: string; port: number; stateless: boolean } = {
    entry,
    ...(typeof options.module === 'string' ? { moduleName: options.module } : {}),
    ...(typeof options.metadata === 'string' ? { metadata: path.resolve(options.metadata) } : {}),
    host: typeof options.host === 'string' ? options.host : '127.0.0.1',
    port,
    stateless: options.stateless === true,
  };

  let child: ChildProcess | undefined;
  let inspecting: Promise<RunningInspector | undefined> | undefined;
  const installing = new AbortController();
  let shown = false;
  let stopping = false;
  const start = () =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const started = Date.now();
      const current = fork(RUNNER, [], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      child = current;
      current.once('message', (message: { url?: string; error?: string }) => {
        if (message.url) {
          say(`serving ${path.relative(process.cwd(), entry)} at ${message.url} (${Date.now() - started} ms)`);
          // Port 0 asked for a free port: the restarts keep the one it got, and so the URL.
          if (job.port === 0) job.port = Number(new URL(message.url).port);
          if (!shown) {
            shown = true;
            if (!inspect) say(`inspect it: npx @modelcontextprotocol/inspector, then connect to ${message.url} (transport: Streamable HTTP)`);
            say(`watching ${path.relative(process.cwd(), folder) || '.'} for changes; Ctrl-C stops`);
          }
          // The Inspector once a server has started (it needs the URL), installed first on first use.
          if (inspect && !inspecting && !stopping) inspecting = openInspector(message.url);
        } else {
          say(`the server did not start:\n${message.error}\n[mcp-reflect dev] waiting for a change to ${path.relative(process.cwd(), folder) || '.'}`);
        }
        resolve();
      });
      current.once('exit', () => resolve());
      current.send(job);
    });
  // The server closes itself within 3 s of SIGTERM, its proxied remotes included (./dev-runner.ts); past 5 s it is killed.
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      const current = child;
      child = undefined;
      if (!current || current.exitCode !== null || current.signalCode !== null) return resolve();
      const kill = setTimeout(() => current.kill('SIGKILL'), 5_000);
      current.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      current.kill('SIGTERM');
    });

  // One restart at a time; changes during one make one more after it.
  let restarting: Promise<void> | undefined;
  let again = false;
  const restart = async (why: string) => {
    if (restarting) {
      again = true;
      return;
    }
    restarting = (async () => {
      do {
        again = false;
        if (stopping) return;
        say(`${why}: restarting`);
        if (metadataFile && !/\.json$/.test(metadataFile)) {
          const generated = await generateCommand(['--quiet', '--out', metadataFile, '--project', projectConfig(entry)]).catch((error: Error) => ({ exitCode: 1, stdout: '', stderr: error.message }));
          if (generated.exitCode !== 0) say(`mcp-reflect generate failed (the last types are kept): ${generated.stderr ?? ''}`);
        }
        await stop();
        await start();
      } while (again);
    })();
    await restarting;
    restarting = undefined;
  };

  const openInspector = async (serverUrl: string): Promise<RunningInspector | undefined> => {
    try {
      const launcher = givenLauncher ?? (await ensureInspector(inspectorCacheFolder(), say, installing.signal));
      if (stopping) return undefined;
      const running = await startInspector({ node: node!, launcher, serverUrl, say });
      if (stopping) {
        await running.stop();
        return undefined;
      }
      say(`the MCP Inspector ${INSPECTOR_VERSION} on ${serverUrl}: open ${running.url}`);
      say('(connect with its switch; it keeps working across restarts, and its Refresh lists the new tools)');
      return running;
    } catch (error) {
      if (stopping) return undefined;
      say(`${(error as Error).message}\n[mcp-reflect dev] the server goes on without the Inspector`);
      return undefined;
    }
  };

  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const changed = (file: string | null) => {
    if (stopping || !file || IGNORED.test(file) || (metadataFile && path.resolve(folder, file) === metadataFile)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void restart(`${file} changed`), 150);
  };
  // Ctrl-C (or SIGTERM) from the first moment, the first start included: the watcher closes, the server (and
  // what it started) ends, then dev exits.
  const stopped = new Promise<CommandOutput>((resolve) => {
    const quit = () => {
      if (stopping) return;
      stopping = true;
      process.off('SIGINT', quit);
      process.off('SIGTERM', quit);
      clearTimeout(timer);
      watcher?.close();
      installing.abort(); // a first install of the Inspector under way
      say('stopping');
      void (async () => {
        await Promise.all([(async () => (await inspecting)?.stop())(), (async () => {
          await restarting;
          await stop();
        })()]);
        resolve({ stdout: '', exitCode: 0 });
      })();
    };
    process.on('SIGINT', quit);
    process.on('SIGTERM', quit);
  });
  await start();
  try {
    if (!stopping) watcher = watch(folder, { recursive: true }, (_event, file) => changed(file ? String(file) : null));
  } catch (error) {
    // A folder that cannot be watched: the server started for nothing is stopped before dev reports it.
    stopping = true;
    await stop();
    throw error;
  }
  return stopped;
}

/** The folder of the entry's project it lies in (src/ of src/app.module.ts), or the entry's own folder. */
function watchedFolder(entry: string): string {
  const root = path.dirname(projectConfig(entry));
  const relative = path.relative(root, entry).split(path.sep);
  return relative.length > 1 ? path.join(root, relative[0]!) : path.dirname(entry);
}

/** The nearest tsconfig.json above the entry (else its folder's). */
function projectConfig(entry: string): string {
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'tsconfig.json'))) return path.join(dir, 'tsconfig.json');
    if (path.dirname(dir) === dir) return path.join(path.dirname(entry), 'tsconfig.json');
  }
}
