import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * samples/edge on Bun, Deno and Cloudflare's workerd, each from its npm package (tools/bun, tools/deno,
 * tools/workerd, installed by the jest global set-up), bundled as that runtime expects — esbuild (wrangler's) for
 * Bun and Deno, wrangler itself for workerd — so no decorator metadata is emitted: the schemas come from the
 * generated mcp-metadata.ts and the validators from mcp-validators.js. Probed by the official SDK client in both eras.
 */
const root = path.resolve(__dirname, '..', '..');
const tools = path.join(root, 'tools');
const bin = (tool: string, name: string) => path.join(tools, tool, 'node_modules', '.bin', name);
const node22 = path.join(tools, 'node22', 'node_modules', '.bin');
/** The latest compatibility date the workerd of tools/wrangler-node20 accepts (docs/runtimes.md). */
const WRANGLER_NODE20_DATE = '2026-05-03';

function exec(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => (error ? reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stderr}`)) : resolve(stdout))),
  );
}

/** Starts a server process and resolves with its URL once its output names the port it listens on. */
function start(command: string, args: string[], ready: RegExp, env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${command} did not listen within 60 s:\n${seen.slice(-2000)}`)), 60_000);
    const read = (chunk: Buffer) => {
      seen += chunk.toString();
      const port = ready.exec(seen)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${port}/mcp`, child });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}):\n${seen.slice(-2000)}`)));
  });
}

function stop(child: ChildProcess | undefined): void {
  // The process group: wrangler runs workerd as a child of its own.
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

async function probe(url: string): Promise<void> {
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    const client = new Client({ name: 'runtimes-spec', version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const { tools } = await client.listTools();
      // From the generated types: the JSDoc descriptions and the literal union, which no bundler's metadata carries.
      expect(tools.find((t) => t.name === 'greet')?.inputSchema).toMatchObject({
        properties: { name: { type: 'string', description: 'who to greet' }, style: { enum: expect.arrayContaining(['plain', 'excited']), default: 'plain' } },
        required: ['name'],
      });
      const greeted = await client.callTool({ name: 'greet', arguments: { name: 'Ada', style: 'excited' } });
      expect(greeted.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([{ type: 'text', text: '5' }]);
      // The precompiled reporting validator names the field.
      const invalid = await client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
      expect(invalid).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('a: must be a number') }] });
    } finally {
      await client.close();
    }
  }
}

describe('samples/edge on other runtimes, through the SDK client', () => {
  let scratch: string;
  let child: ChildProcess | undefined;
  beforeAll(() => (scratch = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-runtimes-'))));
  afterEach(() => stop(child));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** The sample entry bundled by esbuild, `mcp-reflect` taken from the build in dist/ as a user's project takes it. */
  const bundle = async (entry: string): Promise<string> => {
    const out = path.join(scratch, `${path.basename(entry, '.ts')}.cjs`);
    const args = [entry, '--bundle', '--platform=node', '--format=cjs', `--outfile=${out}`, '--alias:mcp-reflect=./dist/index.js', '--tsconfig=samples/edge/tsconfig.json', '--log-level=warning'];
    await exec(bin('workerd', 'esbuild'), args);
    return out;
  };

  it('has its validators made from its current schemas (mcp-reflect validators --check)', async () => {
    await exec(process.execPath, ['-r', './spec/support/register.js', 'lib/cli/main.ts', 'validators', 'samples/edge/edge.module.ts', '--out', 'samples/edge/mcp-validators.js', '--check', '--quiet']);
  }, 60_000);

  const serve = async (command: string, args: string[], ready: RegExp, env: NodeJS.ProcessEnv = process.env) => {
    const server = await start(command, args, ready, env);
    child = server.child;
    await probe(server.url);
  };

  it('runs on Bun (Bun.serve)', async () => {
    await serve(bin('bun', 'bun'), [await bundle('samples/edge/bun.ts')], /LISTENING (\d+)/, { ...process.env, PORT: '0' });
  }, 120_000);

  it('runs on Deno (Deno.serve)', async () => {
    const file = await bundle('samples/edge/deno.ts');
    await serve(bin('deno', 'deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', file], /LISTENING (\d+)/, { ...process.env, PORT: '0', NO_COLOR: '1' });
  }, 120_000);

  it('runs on Cloudflare workerd (wrangler dev, nodejs_compat), stateless', async () => {
    // wrangler needs Node 22 or later: the pinned one of tools/node22. No network: no metrics, no account.
    const env = { ...process.env, PATH: `${node22}${path.delimiter}${process.env.PATH}`, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', WRANGLER_LOG_PATH: scratch };
    const args = ['dev', '--config', 'samples/edge/wrangler.toml', '--ip', '127.0.0.1', '--port', '0', '--persist-to', path.join(scratch, 'state')];
    await serve(bin('workerd', 'wrangler'), args, /Ready on http:\/\/127\.0\.0\.1:(\d+)/, env);
  }, 180_000);

  it('runs on the workerd of the wrangler npm installs on Node 20 (tools/wrangler-node20), on the Node running the specs (20 in CI)', async () => {
    // wrangler 4.86.0, the last whose engines allow Node 20, on this process's Node; its workerd (1.20260426.1) knows
    // compatibility dates up to its release, so the sample's later date is lowered on the command line.
    const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', WRANGLER_LOG_PATH: scratch };
    const args = ['dev', '--config', 'samples/edge/wrangler.toml', '--compatibility-date', WRANGLER_NODE20_DATE, '--ip', '127.0.0.1', '--port', '0', '--persist-to', path.join(scratch, 'state-node20')];
    await serve(process.execPath, [path.join(tools, 'wrangler-node20', 'node_modules', 'wrangler', 'bin', 'wrangler.js'), ...args], /Ready on http:\/\/127\.0\.0\.1:(\d+)/, env);
  }, 180_000);
});
