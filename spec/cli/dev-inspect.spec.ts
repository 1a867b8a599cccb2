import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Browser, findChromium } from '../apps/support/chromium';
import { freePort } from '../support/free-port';
import { waitFor, within } from '../support/waiting';

/**
 * `mcp-reflect dev --inspect` as a person uses it: dev serves a temp copy of a project and starts the official
 * MCP Inspector (the one tools/conformance pins, installed by the global set-up, run on tools/node22's Node 22);
 * Debian's headless Chromium opens the printed URL, connects, lists the tools, fills a tool's form, runs it and
 * sees its result and progress; the tool's source is edited, and after dev's restart the Inspector, still
 * connected, says its list changed and shows the new tool; Ctrl-C ends dev, the server and the Inspector.
 */
const root = path.resolve(__dirname, '..', '..');
const NODE22 = path.join(root, 'tools', 'node22', 'node_modules', '.bin', 'node');
const INSPECTOR_DIR = path.join(root, 'tools', 'conformance');
const SHOTS = path.join(root, '.ci', 'tmp');
const chromium = findChromium();
if (!chromium) throw new Error('Chromium is not installed: apt-get install -y chromium (npm test does it when it can), or set CHROMIUM_BIN.');

const GREETER = `import { Context, Ctx, Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';

@Injectable()
export class GreetTools {
  @Tool({ description: 'Greets someone, reporting its progress' })
  async greet(@Param('name', { description: 'who to greet' }) name: string, @Ctx() ctx: Context): Promise<string> {
    await ctx.reportProgress(50, 100, 'halfway');
    await ctx.reportProgress(100, 100, 'greeted');
    return \`Hello, \${name}!\`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'greeter', version: '1.0.0' })], providers: [GreetTools] })
export class AppModule {}
`;
const FAREWELL = `  @Tool({ description: 'Says goodbye (added while dev ran)' })
  farewell(@Param('name') name: string): string {
    return \`Goodbye, \${name}!\`;
  }
}

@Module(`;

/** Where the Inspectors of this spec keep their UI state (not ~/.mcp-inspector), removed at the end. */
const STORE = mkdtempSync(path.join(tmpdir(), 'inspector-store-'));

/** Runs the CLI from the sources on this Node (20 in CI), as dev.spec does. */
function dev(args: readonly string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['-r', './spec/support/register.js', 'lib/cli/main.ts', 'dev', ...args], { cwd: root, env: { ...process.env, NODE_OPTIONS: '', MCP_STORAGE_DIR: STORE, ...env } });
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  return { child, output: () => output };
}

/** The page dev prints for the Inspector (`open <url>`); a timeout names what dev said instead. */
function inspectorUrl(run: { output: () => string }, pattern = /open (http:\/\/127\.0\.0\.1:\d+\/\?MCP_INSPECTOR_API_TOKEN=[0-9a-f]{64})/): Promise<string> {
  return waitFor(() => pattern.exec(run.output())?.[1], { what: 'the Inspector URL', timeout: 60_000 }).catch((error: Error) => {
    throw new Error(`${error.message}; dev said:\n${run.output()}`);
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** A page of headless Chromium and what a person does on it: read its text, click a button or a tab, type. */
async function openPage(browser: Browser) {
  const page = await browser.newPage();
  const evaluate = async <T>(expression: string): Promise<T> => {
    const { result, exceptionDetails } = await browser.send<{ result: { value: T }; exceptionDetails?: { text: string } }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, page);
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.text}`);
    return result.value;
  };
  const text = () => evaluate<string>('document.body ? document.body.innerText : ""');
  const seen = (what: string, timeout = 20_000) => waitFor(async () => (await text()).includes(what) || undefined, { what: `"${what}" on the page`, timeout, interval: 100 });
  /** Clicks the element `selector` matches whose text (or aria-label) is `label` (a button, a tab's label), once it is there. */
  const click = async (selector: string, label: string) => {
    const found = `[...document.querySelectorAll(${JSON.stringify(selector)})].find((e) => e.textContent.trim() === ${JSON.stringify(label)} || e.getAttribute('aria-label') === ${JSON.stringify(label)})`;
    await waitFor(() => evaluate<boolean>(`!!${found}`), { what: `${selector} "${label}"`, timeout: 20_000, interval: 100 });
    await evaluate(`${found}.click()`);
  };
  /** Types `value` into the form's `field`, as keystrokes would (the form the Inspector made of the tool's input schema). */
  const type = async (field: string, value: string) => {
    await evaluate(`(() => { const label = [...document.querySelectorAll('label')].find((e) => e.textContent.trim().startsWith(${JSON.stringify(field)})); document.getElementById(label.htmlFor).focus(); })()`);
    await browser.send('Input.insertText', { text: value }, page);
  };
  const screenshot = async (name: string) => {
    const { data } = await browser.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, page);
    writeFileSync(path.join(SHOTS, name), Buffer.from(data, 'base64'));
  };
  /** Opens the Inspector's `url`, turns on the switch of the server at `port`, and shows its tools. */
  const connect = async (url: string, port: number) => {
    await browser.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 720, deviceScaleFactor: 1, mobile: false }, page);
    await browser.send('Page.navigate', { url }, page);
    await seen(`127.0.0.1:${port}`);
    await click('input[role=switch]', `Connect or disconnect "127.0.0.1:${port}"`);
    await seen('Connected');
    expect(await text()).toContain('MCP 2026-07-28');
    await click('label', 'Tools');
  };
  return { text, seen, click, type, screenshot, connect };
}

describe('mcp-reflect dev --inspect', () => {
  const dir = path.join(root, 'spec', 'fixtures', `tmp-dev-inspect-${process.pid}`);
  const entry = path.join(dir, 'src', 'app.module.ts');
  const children: ChildProcess[] = [];
  beforeAll(() => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true }, include: ['src'] }));
    writeFileSync(entry, GREETER);
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    rmSync(STORE, { recursive: true, force: true });
  });

  it('opens the Inspector on the dev server: a tool called from its form with progress, a new tool after a restart, all ended by Ctrl-C', async () => {
    const port = await freePort();
    const run = dev([entry, '--port', String(port), '--inspect', '--inspector-node', NODE22, '--inspector-dir', INSPECTOR_DIR]);
    children.push(run.child);
    const url = await inspectorUrl(run);
    expect(run.output()).toContain(`serving ${path.relative(root, entry)} at http://127.0.0.1:${port}/mcp`);
    // Its API refuses a request without the token it printed: the token is on.
    const api = new URL(url);
    expect((await fetch(`${api.origin}/api/config`)).status).toBe(401);

    const browser = Browser.launch(chromium!);
    try {
      const { seen, click, type, screenshot, connect } = await openPage(browser);
      await connect(url, port);
      await click('button', 'greet');
      await seen('who to greet');
      await type('name', 'Ada');
      await click('button', 'Execute Tool');
      await seen('Hello, Ada!');
      await seen('greeted — 100 / 100');
      await screenshot('inspector-call.png');

      writeFileSync(entry, readFileSync(entry, 'utf8').replace('}\n\n@Module(', FAREWELL));
      await waitFor(() => (run.output().match(/serving /g) ?? []).length >= 2 || undefined, { what: 'the restart', timeout: 30_000 });
      // The stopped server told the Inspector its tools changed: it offers to list them again, still connected.
      await seen('List updated');
      await click('button', 'Refresh');
      await click('button', 'farewell');
      await seen('Says goodbye (added while dev ran)');
      // And it runs, on the new server, with no reconnect (2026-07-28: no session to lose).
      await type('name', 'Grace');
      await click('button', 'Execute Tool');
      await seen('Goodbye, Grace!');
      await screenshot('inspector-restart.png');
    } finally {
      await browser.close();
    }

    run.child.kill('SIGINT');
    expect(await within(exited(run.child), 'dev to stop', 15_000)).toBe(0);
    // The Inspector's process group went with it: nothing answers on its port any longer.
    await expect(fetch(`${api.origin}/healthz`)).rejects.toThrow();
  }, 180_000);

  it('does the same for a Nest application (samples/nest)', async () => {
    const port = await freePort();
    const run = dev([path.join(root, 'samples', 'nest', 'app.module.ts'), '--port', String(port), '--inspect', '--inspector-node', NODE22, '--inspector-dir', INSPECTOR_DIR]);
    children.push(run.child);
    const url = await inspectorUrl(run);
    const browser = Browser.launch(chromium!);
    try {
      const { click, seen, type, connect } = await openPage(browser);
      await connect(url, port);
      await click('button', 'add_note');
      await type('title', 'Seen in the Inspector');
      await type('body', 'from a Nest application');
      await click('button', 'Execute Tool');
      await seen('"title": "Seen in the Inspector"');
    } finally {
      await browser.close();
    }
    run.child.kill('SIGINT');
    expect(await within(exited(run.child), 'dev to stop', 15_000)).toBe(0);
  }, 120_000);

  it('starts the Inspector once a server has started, on the port it got (--port 0, a broken first start)', async () => {
    const broken = path.join(dir, 'broken', 'app.module.ts');
    mkdirSync(path.dirname(broken), { recursive: true });
    writeFileSync(broken, 'export class Broken {');
    const run = dev([broken, '--port', '0', '--watch', path.dirname(broken), '--inspect', '--inspector-node', NODE22, '--inspector-dir', INSPECTOR_DIR]);
    children.push(run.child);
    await waitFor(() => run.output().includes('waiting for a change') || undefined, { what: 'the failed start', timeout: 30_000 });
    expect(run.output()).not.toContain('MCP Inspector');
    // Written again until dev sees it: its watcher starts just after it reports the failed first start.
    await waitFor(() => run.output().includes('changed: restarting') || void writeFileSync(broken, GREETER), { what: 'the restart', timeout: 30_000, interval: 500 });
    const [, url, inspector] = await waitFor(() => /the MCP Inspector 2\.12\.0 on (\S+): open (http:\S+)/.exec(run.output()) ?? undefined, { what: "the Inspector's line", timeout: 60_000 });
    expect(run.output()).toContain(`at ${url} `);
    expect(new URL(url!).port).not.toBe('0');
    expect((await fetch(`${new URL(inspector!).origin}/healthz`)).status).toBe(200);
    run.child.kill('SIGINT');
    expect(await within(exited(run.child), 'dev to stop', 15_000)).toBe(0);
  }, 90_000);

  it('ends the Inspector when dev is killed outright (SIGKILL: no signal reaches its process group)', async () => {
    const port = await freePort();
    const run = dev([entry, '--port', String(port), '--inspect', '--inspector-node', NODE22, '--inspector-dir', INSPECTOR_DIR]);
    children.push(run.child);
    const url = await inspectorUrl(run, /open (http:\/\/127\.0\.0\.1:\d+\/)\?/);
    expect((await fetch(`${url}healthz`)).status).toBe(200);
    run.child.kill('SIGKILL');
    await exited(run.child);
    await waitFor(async () => (await fetch(`${url}healthz`).then(() => false, () => true)) || undefined, { what: 'the Inspector to end with dev', timeout: 10_000, interval: 100 });
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/mcp`).then(() => false, () => true)) || undefined, { what: 'the server to end with dev', timeout: 10_000, interval: 100 });
  }, 90_000);

  it('says which Node the Inspector needs, before anything starts, on a Node older than 22.19', async () => {
    const older = Number(process.versions.node.split('.')[0]) < 22 || (Number(process.versions.node.split('.')[0]) === 22 && Number(process.versions.node.split('.')[1]) < 19);
    // On a newer Node, the same check is made on the Node given with --inspector-node: this one's own (it passes), so a fake older one.
    const args = older ? [entry, '--inspect'] : [entry, '--inspect', '--inspector-node', path.join(dir, 'node20')];
    if (!older) writeFileSync(path.join(dir, 'node20'), '#!/bin/sh\necho v20.19.0\n', { mode: 0o755 });
    const run = dev(args);
    children.push(run.child);
    expect(await within(exited(run.child), 'dev to refuse', 30_000)).toBe(2);
    expect(run.output()).toContain('The MCP Inspector 2.12.0 needs Node 22.19 or later');
    expect(run.output()).toContain('--inspector-node');
    expect(run.output()).not.toContain('serving');
  }, 60_000);

  it('goes on serving, saying why, when the Inspector cannot be installed (the registry unreachable)', async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'inspector-offline-'));
    const closed = await freePort();
    const port = await freePort();
    try {
      const run = dev([entry, '--port', String(port), '--inspect', '--inspector-node', NODE22], {
        MCP_REFLECT_CACHE_DIR: path.join(scratch, 'cache'),
        npm_config_cache: path.join(scratch, 'npm-cache'),
        npm_config_registry: `http://127.0.0.1:${closed}/`,
        npm_config_fetch_retries: '0',
        npm_config_offline: '',
      });
      children.push(run.child);
      await waitFor(() => run.output().includes('the server goes on without the Inspector') || undefined, { what: 'the failed install to be reported', timeout: 90_000 });
      expect(run.output()).toContain('Cannot install the MCP Inspector 2.12.0');
      expect(run.output()).toContain('npm config get registry');
      expect(run.output()).toContain(`at http://127.0.0.1:${port}/mcp`);
      // Nothing half-installed is left in the cache.
      expect(() => readFileSync(path.join(scratch, 'cache', 'inspector-2.12.0', 'package.json'))).toThrow();
      run.child.kill('SIGINT');
      expect(await within(exited(run.child), 'dev to stop', 15_000)).toBe(0);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);

  it('stops at once on Ctrl-C during a first install of the Inspector, leaving nothing of it (npm ended, no half-made folder)', async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'inspector-hang-'));
    // A registry that accepts connections and never answers: npm waits on it, as on a very slow network.
    const sockets = new Set<Socket>();
    const closed = new Set<Socket>();
    const registry = createServer((socket) => void sockets.add(socket.on('error', () => undefined).on('close', () => closed.add(socket)).resume()));
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    try {
      const run = dev([entry, '--port', String(await freePort()), '--inspect', '--inspector-node', NODE22], {
        MCP_REFLECT_CACHE_DIR: path.join(scratch, 'cache'),
        npm_config_cache: path.join(scratch, 'npm-cache'),
        npm_config_registry: `http://127.0.0.1:${(registry.address() as { port: number }).port}/`,
        npm_config_fetch_retries: '0',
      });
      children.push(run.child);
      await waitFor(() => sockets.size > 0 || undefined, { what: 'npm to ask the registry', timeout: 60_000, interval: 50 });
      const started = Date.now();
      run.child.kill('SIGINT');
      expect(await within(exited(run.child), 'dev to stop', 10_000)).toBe(0);
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(run.output()).not.toContain('the server goes on without the Inspector');
      // npm is gone (its connections closed), and neither the cache nor a staging folder beside it was left.
      await waitFor(() => closed.size === sockets.size || undefined, { what: 'npm to end', timeout: 5_000, interval: 50 });
      expect(existsSync(path.join(scratch, 'cache')) ? readdirSync(path.join(scratch, 'cache')) : []).toEqual([]);
    } finally {
      for (const socket of sockets) socket.destroy();
      registry.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);
});
