import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import autocannon from 'autocannon';
import { BASELINE_PREFIX } from '../baseline';
import { writePrecompiled } from '../precompiled';
import { ADD_ARGS, BOOK_ARGS, BOOK_TEXT, type BenchSystem } from '../system';
import { alternateSamples, summarize } from '../stats';
import { HEADERS } from './http';
import type { Settings } from './in-memory';

/** The SDK's Worker, the reference of the (w) rows: its paired ratios are taken against it. */
const SDK = 'McpServer+zod (createMcpHandler)';
const REFLECT = 'mcp-reflect (createFetchHandler)';
const WORKERS = [
  { name: SDK, entry: 'sdk.worker.js' },
  { name: REFLECT, entry: 'reflect.worker.js' },
];

const TOOLS = path.resolve(__dirname, '..', '..', '..', 'tools');
const WRANGLER = path.join(TOOLS, 'workerd', 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const NODE22 = path.join(TOOLS, 'node22', 'node_modules', '.bin', 'node');

interface Workerd {
  /** The workerd binary of the pinned npm package (its public export) and the latest compatibility date it knows. */
  readonly binary: string;
  readonly compatibilityDate: string;
  /** A Node that runs wrangler 4 (22 or later). */
  readonly node: string;
}

/**
 * What (w) needs from the project's tools: tools/workerd (wrangler and workerd, pinned) and a Node for wrangler
 * (tools/node22 when this one is older than 22). Undefined, with the reason printed, when one is missing.
 */
function findWorkerd(): Workerd | undefined {
  const skip = (why: string) => void console.error(`  (w) skipped: ${why}`);
  let workerd: { default: string; compatibilityDate: string };
  try {
    workerd = require(path.join(TOOLS, 'workerd', 'node_modules', 'workerd')) as typeof workerd;
  } catch (error) {
    return skip(`no workerd in tools/workerd (npm ci --prefix tools/workerd): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (!existsSync(workerd.default)) return skip(`the workerd binary ${workerd.default} is missing (npm ci --prefix tools/workerd)`);
  if (!existsSync(WRANGLER)) return skip('no wrangler in tools/workerd (npm ci --prefix tools/workerd)');
  const node = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : NODE22;
  if (!existsSync(node)) return skip(`wrangler 4 needs Node 22 or later, and this is Node ${process.version} without tools/node22 (npm ci --prefix tools/node22)`);
  return { binary: workerd.default, compatibilityDate: workerd.compatibilityDate, node };
}

/**
 * Bundles one Worker as a user's `wrangler deploy` does (--dry-run: no account, no network), from tsc's output in
 * bench/build (decorator metadata included), and writes the workerd configuration that serves it.
 */
function bundle(workerd: Workerd, dir: string, entry: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  // An ES module entry that re-exports the compiled Worker's default export (tsc emits CommonJS).
  writeFileSync(path.join(dir, 'entry.js'), `import worker from ${JSON.stringify(path.join(__dirname, '..', 'edge', entry))};\nexport default worker;\n`);
  const date = `compatibility_date = "${workerd.compatibilityDate}"`;
  writeFileSync(path.join(dir, 'wrangler.toml'), `name = "bench-worker"\nmain = "entry.js"\n${date}\ncompatibility_flags = ["nodejs_compat"]\n`);
  // nodejs_compat is the default at this date: workerd itself needs no flag.
  writeFileSync(
    path.join(dir, 'config.capnp'),
    [
      'using Workerd = import "/workerd/workerd.capnp";',
      'const config :Workerd.Config = (',
      '  services = [(name = "main", worker = .worker)],',
      '  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],',
      ');',
      'const worker :Workerd.Worker = (',
      '  modules = [(name = "entry.js", esModule = embed "out/entry.js")],',
      `  compatibilityDate = "${workerd.compatibilityDate}",`,
      ');',
      '',
    ].join('\n'),
  );
  const env = { ...process.env, PATH: `${path.dirname(workerd.node)}${path.delimiter}${process.env.PATH}`, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', WRANGLER_LOG_PATH: dir };
  return new Promise((resolve, reject) =>
    execFile(workerd.node, [WRANGLER, 'deploy', '--dry-run', '--outdir', 'out'], { cwd: dir, env, encoding: 'utf8' }, (error, stdout, stderr) =>
      error ? reject(new Error(`(w) wrangler could not bundle ${entry}: ${error.message}\n${stdout}\n${stderr}`)) : resolve(),
    ),
  );
}

interface Running {
  readonly url: string;
  stop(): Promise<void>;
}

/** One workerd process serving a bundled Worker on 127.0.0.1 (port 0), resolved once it says its port (--control-fd). */
function serve(workerd: Workerd, dir: string): Promise<Running> {
  const child: ChildProcess = spawn(workerd.binary, ['serve', 'config.capnp', '--control-fd', '3'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-4000)));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  return new Promise((resolve, reject) => {
    let control = '';
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      control += chunk.toString();
      const port = /"event":"listen","socket":"http","port":(\d+)/.exec(control)?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}/mcp`, stop });
    });
    child.once('exit', (code) => reject(new Error(`(w) workerd exited (${code}) before it listened:\n${output}`)));
    child.once('error', (error) => reject(new Error(`(w) cannot start ${workerd.binary}: ${error.message}`)));
  });
}

/** One stateless tools/call on a new connection: the answer's text, or an error naming what came back. */
function call(url: string, tool: string, args: object): Promise<string> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } });
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: HEADERS, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        // JSON or one SSE event, whichever the server chose.
        const json = text.trimStart().startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
        const answer = json ? (JSON.parse(json) as { result?: { content?: { text?: string }[] } }) : undefined;
        const first = answer?.result?.content?.[0]?.text;
        if (res.statusCode === 200 && first !== undefined) resolve(first);
        else reject(new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 500)}`));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * (w) A Cloudflare Worker on workerd: mcp-reflect's web-standard handler against the SDK's own
 * (`createMcpHandler`), the same `add` and `book` tools, each bundled by wrangler and served by the workerd of
 * tools/workerd. First call: process start → first tools/call answered (ms), `reps` fresh processes alternating;
 * steady state: stateless tools/call per second at 32 connections (autocannon), `httpRounds` alternating rounds.
 * Ratios: the median of round-by-round ratios against the SDK's Worker. Skipped, said so, without workerd.
 */
export async function workersEdge(
  systems: readonly BenchSystem[],
  settings: Settings & { seconds: number; warmSeconds: number; httpRounds: number },
): Promise<Record<string, Record<string, number>>> {
  if (!systems.some((s) => s.name === 'mcp-reflect')) return {};
  if (systems.some((s) => s.name.startsWith(BASELINE_PREFIX))) console.error('  (w) measures the current tree only (no baseline Worker)');
  const workerd = findWorkerd();
  if (!workerd) return {};
  writePrecompiled(); // the validators the mcp-reflect Worker is bundled with
  const scratch = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-bench-workerd-'));
  const dirs = new Map(WORKERS.map((w) => [w.name, path.join(scratch, w.entry.replace(/\.js$/, ''))]));
  const running = new Map<string, Running>();
  try {
    await Promise.all(WORKERS.map((w) => bundle(workerd, dirs.get(w.name)!, w.entry)));
    const firstCall = await alternateSamples(
      WORKERS,
      settings.reps,
      async (worker) => {
        const started = performance.now();
        const server = await serve(workerd, dirs.get(worker.name)!);
        try {
          const text = await call(server.url, 'add', ADD_ARGS);
          const elapsed = performance.now() - started;
          if (text !== '5') throw new Error(`(w) ${worker.name} answered add with ${JSON.stringify(text)}`);
          return elapsed;
        } finally {
          await server.stop();
        }
      },
      false,
    );
    for (const worker of WORKERS) running.set(worker.name, await serve(workerd, dirs.get(worker.name)!));
    const steady: Record<string, Map<string, number[]>> = {};
    for (const [tool, args, expected] of [['add', ADD_ARGS, '5'], ['book', BOOK_ARGS, BOOK_TEXT]] as const) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } });
      const load = (name: string) => ({ url: running.get(name)!.url, method: 'POST' as const, headers: HEADERS, body, connections: 32 });
      for (const worker of WORKERS) {
        const text = await call(running.get(worker.name)!.url, tool, args);
        if (text !== expected) throw new Error(`(w) ${worker.name} answered ${tool} with ${JSON.stringify(text)}, not ${JSON.stringify(expected)}`);
        await autocannon({ ...load(worker.name), duration: settings.warmSeconds }); // JIT warm-up, not counted
      }
      steady[tool] = await alternateSamples(WORKERS, settings.httpRounds, async (worker) => {
        const result = await autocannon({ ...load(worker.name), duration: settings.seconds });
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`(w) ${worker.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        return result.requests.average;
      });
    }
    const first = '(w) Workers (workerd): process start → first tools/call add answered (ms)';
    const add = '(w) Workers (workerd): stateless tools/call add, 32 connections (req/s)';
    const book = '(w) Workers (workerd): stateless tools/call book, 32 connections (req/s)';
    return { [first]: summarize(first, firstCall, SDK), [add]: summarize(add, steady.add, SDK), [book]: summarize(book, steady.book, SDK) };
  } finally {
    await Promise.all([...running.values()].map((r) => r.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}
