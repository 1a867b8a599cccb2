import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EVERYTHING } from '../support/everything';
import { allGone, launched } from '../support/launched';
import { waitFor, within } from '../support/waiting';

/**
 * `mcp-reflect dev` (its source and its build) stops cleanly (docs/reliability.md, issue 40): its server proxies a stdio remote started
 * through a launcher (spec/fixtures/failed-bootstrap/wrapper.mjs, as `npx pkg` is npm → sh → node). On Ctrl-C or
 * SIGTERM — after the start, during it, after a failed start — the watcher closes, the server, the launcher and
 * its child are gone and dev exits promptly; killed outright, dev's server notices and ends itself and the remote;
 * a bad entry path exits non-zero at once.
 */
const root = path.resolve(__dirname, '..', '..');
const wrapper = path.join(root, 'spec', 'fixtures', 'failed-bootstrap', 'wrapper.mjs');
/** The CLI from its TypeScript source, and its build (spec/support/global-setup.js builds dist/ first). */
const SOURCE = ['-r', './spec/support/register.js', 'lib/cli/main.ts'];
const BUILT = [path.join(root, 'dist', 'cli', 'main.js')];

const app = (pids: string, fails: boolean) => `import { writeFileSync } from 'node:fs';
import { Injectable, McpModule, Module, type OnApplicationBootstrap } from 'mcp-reflect';
writeFileSync(${JSON.stringify(path.join(pids, 'server'))}, String(process.pid));
@Injectable()
export class Startup implements OnApplicationBootstrap {
  onApplicationBootstrap(): void {
    ${fails ? "throw new Error('the database is unreachable');" : ''}
  }
}
@Module({
  imports: [
    McpModule.forRoot({ name: 'dev-stop', version: '1.0.0' }),
    McpModule.proxy({ namespace: 'ev', stdio: { command: process.execPath, args: [${JSON.stringify(wrapper)}, ${JSON.stringify(path.join(pids, 'remote'))}, ${JSON.stringify(EVERYTHING)}] } }),
  ],
  providers: [Startup],
})
export class DevModule {}
`;

describe('mcp-reflect dev stops cleanly', () => {
  const dir = path.join(root, 'spec', 'fixtures', `tmp-dev-stop-${process.pid}`);
  const pids = path.join(dir, 'pids');
  const entry = path.join(dir, 'src', 'app.module.ts');
  let dev: ChildProcess | undefined;
  let output = '';
  const seen: number[] = [];

  beforeEach(() => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    mkdirSync(pids);
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true }, include: ['src'] }));
    output = '';
  });
  afterEach(() => {
    if (dev?.exitCode === null && dev.signalCode === null) dev.kill('SIGKILL');
    // A failure here must not leave the server or the remote behind either.
    for (const pid of seen.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function startDev(target = entry, extra: string[] = [], cli = SOURCE): Promise<number | null> {
    dev = spawn(process.execPath, [...cli, 'dev', target, '--port', '0', ...extra], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } });
    dev.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    dev.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    return new Promise((resolve) => dev!.once('exit', (code) => resolve(code)));
  }

  /** The server's pid, and every launcher's and remote's started so far (the SDK client probes on one first). */
  function started(): number[] {
    const file = (name: string) => path.join(pids, name);
    const server = existsSync(file('server')) ? [Number(readFileSync(file('server'), 'utf8'))] : [];
    const { launchers, remotes } = launched(file('remote'));
    const all = [...server, ...launchers, ...remotes];
    seen.push(...all);
    return all;
  }

  /** Sends `signal` to dev: it must exit with 0 within 5 s (the server closes within 3 s), leaving none of `all`. */
  async function stops(exited: Promise<number | null>, signal: NodeJS.Signals, all: number[]): Promise<void> {
    const sent = Date.now();
    dev!.kill(signal);
    expect(await within(exited, `dev to exit after ${signal}\n${output}`, 10_000)).toBe(0);
    expect(Date.now() - sent).toBeLessThan(5_000);
    expect(output).toContain('stopping');
    await allGone(all);
  }

  it.each([
    ['the source', SOURCE],
    ['the build', BUILT],
  ])('Ctrl-C after the start (%s): the server, the launcher and its child are gone, and dev exits with 0 within 5 s', async (_which, cli) => {
    writeFileSync(entry, app(pids, false));
    const exited = startDev(entry, [], cli);
    await waitFor(() => /serving .* at http/.test(output) || undefined, { what: `dev to serve\n${output}`, timeout: 60_000 });
    const all = started();
    expect(all.length).toBeGreaterThanOrEqual(3);
    await stops(exited, 'SIGINT', all);
  }, 90_000);

  it('SIGTERM while the first start is connecting the remote: the same', async () => {
    writeFileSync(entry, app(pids, false));
    const exited = startDev();
    await waitFor(() => existsSync(path.join(pids, 'remote.launchers')) || undefined, { what: `the remote to be started\n${output}`, timeout: 60_000 });
    expect(output).not.toMatch(/serving .* at http/);
    await stops(exited, 'SIGTERM', started());
    // What started after the signal (the session's launcher after the probe's) is gone too.
    await allGone(started());
  }, 90_000);

  it('a server that fails to start: dev reports it and keeps watching, nothing of the server is left; Ctrl-C exits at once', async () => {
    writeFileSync(entry, app(pids, true));
    const exited = startDev();
    await waitFor(() => output.includes('the server did not start') || undefined, { what: `the failed start to be reported\n${output}`, timeout: 60_000 });
    expect(output).toContain('the database is unreachable');
    expect(output).toContain('waiting for a change');
    await allGone(started());
    expect(dev!.exitCode).toBeNull();
    await stops(exited, 'SIGINT', []);
  }, 90_000);

  it('dev killed outright (SIGKILL): its server notices and ends itself and the remote', async () => {
    writeFileSync(entry, app(pids, false));
    const exited = startDev();
    await waitFor(() => /serving .* at http/.test(output) || undefined, { what: `dev to serve\n${output}`, timeout: 60_000 });
    const all = started();
    dev!.kill('SIGKILL');
    await exited;
    // The server closes within 3 s of noticing.
    await allGone(all, 6_000);
  }, 90_000);

  it('a bad entry path: exits with 2 (a CLI error) at once, naming it', async () => {
    const exited = startDev(path.join(dir, 'src', 'missing.module.ts'));
    expect(await within(exited, 'dev to exit', 15_000)).toBe(2);
    expect(output).toContain('Cannot find the entry file');
  }, 30_000);

  it('a folder to watch that does not exist: exits with 2 at once, naming it, having started no server', async () => {
    writeFileSync(entry, app(pids, false));
    const exited = startDev(entry, ['--watch', path.join(dir, 'missing')]);
    expect(await within(exited, 'dev to exit', 15_000)).toBe(2);
    expect(output).toContain(`Cannot watch ${path.join(dir, 'missing')}: it does not exist`);
    expect(started()).toEqual([]);
  }, 30_000);
});
