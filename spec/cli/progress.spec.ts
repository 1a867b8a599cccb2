import { execFile } from 'node:child_process';
import path from 'node:path';
import { createProgress, type ProgressStream } from '../../lib/cli/progress';

/** A stream that records what is written to it, as a terminal (isTTY, columns) or as a pipe. */
function stream(tty: boolean, columns = 80): ProgressStream & { text: string } {
  const written = { text: '', isTTY: tty, columns, write: (chunk: string) => void (written.text += chunk) };
  return written;
}

describe('createProgress', () => {
  afterEach(() => jest.useRealTimers());

  it('rewrites one line in place on a TTY (cut to the terminal width), and clears it when done', () => {
    const tty = stream(true, 21);
    const progress = createProgress(tty);
    progress.update('Loading app.module.js');
    progress.update('Listing');
    progress.done('Done: 3 tools');
    progress.update('after done');
    progress.done('again');
    expect(tty.text).toBe('\r\x1b[KLoading app.module.…\r\x1b[KListing\r\x1b[KDone: 3 tools\n');
  });

  it('prints plain lines off a TTY, at most one per interval, and the done text', () => {
    let now = 0;
    const pipe = stream(false);
    const progress = createProgress(pipe, { interval: 1000, now: () => now });
    progress.update('step 1');
    now = 500;
    progress.update('step 2');
    now = 1000;
    progress.update('step 3');
    progress.done();
    expect(pipe.text).toBe('step 1\nstep 3\n');
  });

  it('is silent with quiet', () => {
    for (const tty of [true, false]) {
      const out = stream(tty);
      const progress = createProgress(out, { quiet: true });
      progress.update('Loading');
      progress.done('Done');
      expect(out.text).toBe('');
    }
  });

  it('with a delay, shows nothing for a run that ends sooner, and the latest update once the delay ends', () => {
    jest.useFakeTimers();
    const short = stream(true);
    const quick = createProgress(short, { delay: 1000 });
    quick.update('Loading');
    jest.advanceTimersByTime(999);
    quick.done();
    jest.advanceTimersByTime(1000);
    expect(short.text).toBe('');

    const long = stream(true);
    const slow = createProgress(long, { delay: 1000 });
    slow.update('Loading');
    slow.update('Bootstrapping');
    jest.advanceTimersByTime(1000);
    slow.update('Listing');
    slow.done();
    expect(long.text).toBe('\r\x1b[KBootstrapping\r\x1b[KListing\r\x1b[K');
  });
});

describe('mcp-reflect inspect on an entry that loads for over a second', () => {
  const root = path.resolve(__dirname, '..', '..');
  const inspect = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['-r', './spec/support/register.js', 'lib/cli/main.ts', 'inspect', 'spec/fixtures/slow-app.ts', ...args],
        { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('prints a progress line on stderr (a plain line, stderr being a pipe), none with --quiet; stdout is unchanged', async () => {
    const [shown, quiet] = await Promise.all([inspect(), inspect('--quiet')]);
    expect(shown.code).toBe(0);
    expect(shown.stderr).toMatch(/^(Loading|Listing the components of) spec\/fixtures\/slow-app\.ts\n$/);
    expect(quiet).toEqual({ code: 0, stdout: shown.stdout, stderr: '' });
    expect(shown.stdout).toMatch(/^Tools \(1\)\n  ping - Answer pong\n/);
  });
});
