import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * Runs the cases of spec/fixtures/failed-bootstrap/ (spec/host/failed-bootstrap.spec.ts, spec/nest/nest-failed-bootstrap.spec.ts):
 * each in a Node process of its own, which prints `FAILED <json>` once its bootstrap has thrown and then does nothing
 * more, so that it ends only if nothing the bootstrap started is left.
 */
const root = path.resolve(__dirname, '..', '..');
const fixtures = path.join(root, 'spec', 'fixtures', 'failed-bootstrap');

export interface Outcome {
  readonly failed: { message: string; cleanup: string[]; connections?: string[] };
  /** Milliseconds from the error reaching the caller to the process's exit. */
  readonly exitAfter: number;
  readonly output: string;
}

/** Runs `spec/fixtures/failed-bootstrap/<file>` with `args` in a Node process of its own. */
export function runCase(file: string, kind: string, args: string[]): Promise<Outcome> {
  const child = spawn(process.execPath, ['-r', './spec/support/register.js', path.join(fixtures, file), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
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
export async function stillRunning(pid: number): Promise<boolean> {
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
