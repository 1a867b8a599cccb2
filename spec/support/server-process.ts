import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** A fixture server in a process of its own, with a heap of `heapMib` (where memory is what a spec is about). */
export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Whether it still runs (a server that ran out of memory has exited). */
  alive(): boolean;
  /** Heap used and array-buffer + external bytes, after a full GC. */
  memory(): Promise<{ heap: number; buffers: number }>;
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '..', '..');

export async function startServerProcess(fixture: string, heapMib: number, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', `--max-old-space-size=${heapMib}`, '-r', path.join(ROOT, 'spec', 'support', 'register.js'), path.join(ROOT, 'spec', 'fixtures', fixture)],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let buffered = '';
  let exited = false;
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  child.once('exit', () => {
    exited = true;
    for (const waiter of waiting.splice(0)) waiter(undefined);
  });
  const next = () => new Promise<string | undefined>((resolve) => (lines.length > 0 ? resolve(lines.shift()) : exited ? resolve(undefined) : waiting.push(resolve)));
  const first = await next();
  if (!first?.startsWith('URL=')) throw new Error(`The fixture ${fixture} did not start: ${first ?? 'it exited'}`);
  return {
    url: first.slice(4),
    child,
    alive: () => !exited && child.exitCode === null,
    memory: async () => {
      child.stdin!.write('memory\n');
      const line = await next();
      if (!line) throw new Error(`The fixture ${fixture} exited (out of memory?)`);
      const [heap, buffers] = line.replace(/^MEMORY=/, '').split(',').map(Number);
      return { heap, buffers };
    },
    stop: async () => {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await gone;
      clearTimeout(timer);
    },
  };
}
