import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEverythingHttp, type RunningServer } from '../support/everything';

/**
 * A bootstrap that fails leaves nothing running (docs/reliability.md): each case of
 * spec/fixtures/failed-bootstrap/case.ts runs in its own Node process, whose bootstrap connects a proxied remote
 * and then fails (a provider's onApplicationBootstrap throws). The process must end on its own right after the
 * error reaches the caller — no child process, socket or timer of ours left — and the remote's process must be gone.
 */
const root = path.resolve(__dirname, '..', '..');
const caseFile = path.join(root, 'spec', 'fixtures', 'failed-bootstrap', 'case.ts');

interface Outcome {
  readonly failed: { message: string; cleanup: string[] };
  /** Milliseconds from the error reaching the caller to the process's exit. */
  readonly exitAfter: number;
  readonly output: string;
}

function run(kind: string, pidFile: string, url?: string): Promise<Outcome> {
  const child = spawn(process.execPath, ['-r', './spec/support/register.js', caseFile, kind, pidFile, ...(url ? [url] : [])], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let failedAt = 0;
  let failed: Outcome['failed'] | undefined;
  return new Promise((resolve, reject) => {
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the ${kind} case did not end within 30 s (${failed ? 'after its bootstrap failed: something it started is still running' : 'its bootstrap did not fail'}):\n${output.slice(-3000)}`));
    }, 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^FAILED (.+)$/m.exec(output);
      if (match && !failed) {
        failedAt = Date.now();
        failed = JSON.parse(match[1]!);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => {
      clearTimeout(limit);
      if (!failed) return reject(new Error(`the ${kind} case ended without a failed bootstrap:\n${output.slice(-3000)}`));
      resolve({ failed, exitAfter: Date.now() - failedAt, output });
    });
  });
}

/** Whether process `pid` still runs, waiting up to a second for it to go. */
async function stillRunning(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 1000; waited += 50) {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

describe('a failed bootstrap leaves nothing running', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-failed-bootstrap-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['create', 'McpFactory.create()', ['BadCleanup.onModuleDestroy() failed: the cache could not flush']],
    ['test-client', "createTestClient() of mcp-reflect/testing", ['BadCleanup.onModuleDestroy() failed: the cache could not flush']],
    ['several-servers', 'McpFactory.createServers()', []],
  ])('%s: %s ends the proxied stdio remote, and the process exits on its own within a second', async (kind, _what, cleanup) => {
    const pidFile = path.join(dir, `${kind}.pid`);
    const outcome = await run(kind, pidFile);
    // The bootstrap's error is the one thrown; a clean-up that failed too is attached, not in its place.
    expect(outcome.failed).toMatchObject({ message: 'the database is unreachable', cleanup });
    expect(outcome.exitAfter).toBeLessThan(1000);
    expect(await stillRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  }, 60_000);

  describe('with a remote over Streamable HTTP', () => {
    let remote: RunningServer;
    beforeAll(async () => {
      remote = await startEverythingHttp();
    });
    afterAll(() => remote?.stop());

    it('closes the connection to it: the process exits on its own within a second', async () => {
      const outcome = await run('create', path.join(dir, 'http.pid'), remote.url);
      expect(outcome.failed.message).toBe('the database is unreachable');
      expect(outcome.exitAfter).toBeLessThan(1000);
    }, 60_000);
  });
});
