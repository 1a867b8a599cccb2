import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEverythingHttp, type RunningServer } from '../support/everything';

/**
 * A proxied MCP server on Cloudflare's workerd (issue 39, item 3): the Worker of spec/runtimes/proxy-worker proxies
 * the reference server-everything (started here on 127.0.0.1, in Streamable HTTP mode) with McpModule.proxy({ url }).
 * workerd refuses code generation, and a remote's schemas are only known once it is connected, so no validator can
 * be compiled ahead of time for them: they are interpreted. The official SDK client calls the proxied tools through
 * the Worker: valid arguments reach the remote, invalid ones get the validation text, as on Node.
 */
const root = path.resolve(__dirname, '..', '..');
const tools = path.join(root, 'tools');
const wrangler = path.join(tools, 'workerd', 'node_modules', '.bin', 'wrangler');
const node22 = path.join(tools, 'node22', 'node_modules', '.bin');

/** wrangler dev on the Worker, resolved with its URL once it says it is ready. */
function startWorker(remote: string, scratch: string): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  // wrangler needs Node 22 or later: the pinned one of tools/node22. No network: no metrics, no account.
  const env = { ...process.env, PATH: `${node22}${path.delimiter}${process.env.PATH}`, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', WRANGLER_LOG_PATH: scratch };
  const args = ['dev', '--config', 'spec/runtimes/proxy-worker/wrangler.toml', '--ip', '127.0.0.1', '--port', '0', '--persist-to', path.join(scratch, 'state'), '--var', `REMOTE_URL:${remote}`];
  const child = spawn(wrangler, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not listen within 90 s:\n${seen.slice(-2000)}`)), 90_000);
    const read = (chunk: Buffer) => {
      seen += chunk.toString();
      const port = /Ready on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${port}/mcp`, child, output: () => seen });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`wrangler dev exited (${code}):\n${seen.slice(-2000)}`)));
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

const text = (result: unknown) => ((result as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

describe('a proxied MCP server on Cloudflare workerd (wrangler dev), through the SDK client', () => {
  let scratch: string;
  let remote: RemoteServer | undefined;
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  type RemoteServer = RunningServer;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-proxy-worker-'));
    remote = await startEverythingHttp();
    worker = await startWorker(remote.url, scratch);
  }, 150_000);

  afterAll(async () => {
    stop(worker?.child);
    await remote?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('serves the remote tools with their schemas validated without code generation', async () => {
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const client = new Client({ name: 'proxy-worker-spec', version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {});
      await client.connect(new StreamableHTTPClientTransport(new URL(worker!.url)));
      try {
        const { tools } = await client.listTools();
        const names = tools.map((t) => t.name);
        if (!names.includes('ev_get-sum')) throw new Error(`the Worker serves ${JSON.stringify(names)}; its output:\n${worker!.output().slice(-3000)}`);
        expect(names).toEqual(expect.arrayContaining(['ev_echo', 'ev_get-sum']));

        expect(text(await client.callTool({ name: 'ev_get-sum', arguments: { a: 2, b: 3 } }))).toBe('The sum of 2 and 3 is 5.');
        expect(text(await client.callTool({ name: 'ev_echo', arguments: { message: 'hi' } }))).toBe('Echo: hi');

        // Lenient validation coerces "2" to 2, as on Node; a value that is no number is refused before the remote.
        expect(text(await client.callTool({ name: 'ev_get-sum', arguments: { a: '2', b: 3 } }))).toBe('The sum of 2 and 3 is 5.');
        const invalid = await client.callTool({ name: 'ev_get-sum', arguments: { a: 'two', b: 3 } });
        expect(invalid).toMatchObject({ isError: true });
        expect(text(invalid)).toMatch(/^Invalid arguments for tool ev_get-sum: .*a: must be a number/);
        // An output schema, interpreted too: the remote's structured result passes the gateway's output check.
        const weather = await client.callTool({ name: 'ev_get-structured-content', arguments: { location: 'Chicago' } });
        expect(weather).toMatchObject({ structuredContent: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 } });
        expect(weather.isError).toBeFalsy();
        const elsewhere = await client.callTool({ name: 'ev_get-structured-content', arguments: { location: 'Paris' } });
        expect(text(elsewhere)).toMatch(/location: must be one of: "New York", "Chicago", "Los Angeles"/);
        const missing = await client.callTool({ name: 'ev_echo', arguments: {} });
        expect(missing).toMatchObject({ isError: true });
        expect(text(missing)).toMatch(/Invalid arguments for tool ev_echo: .*message: is required/);
      } finally {
        await client.close();
      }
    }
  }, 120_000);
});
