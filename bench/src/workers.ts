import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Job } from './worker';

/** The parent's handle on one system's measuring process. */
export interface Worker {
  readonly name: string;
  run(job: Job): Promise<number>;
  stop(): Promise<void>;
}

const WORKER = path.join(__dirname, 'worker.js');

/** Starts one measuring process per system (in parallel), each loading only its own system. */
export async function startWorkers(names: readonly string[]): Promise<Map<string, Worker>> {
  const workers = await Promise.all(names.map(startWorker));
  return new Map(workers.map((w) => [w.name, w]));
}

/** `BENCH_CPU_PROFILE=dir` writes a V8 CPU profile of every worker into dir (for `node --cpu-prof` analysis). */
function profile(name: string): string[] {
  const dir = process.env.BENCH_CPU_PROFILE;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name.replace(/\W/g, '_')}-${Date.now()}.cpuprofile`] : [];
}

async function startWorker(name: string): Promise<Worker> {
  const child: ChildProcess = fork(WORKER, [name], { execArgv: ['--expose-gc', ...profile(name)], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, { resolve: (v: number) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${name}: worker exited with ${code} before it was ready`)));
  });
  child.on('message', (message: { id: number; value?: number; error?: string }) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(`${name}: ${message.error}`));
    else waiter?.resolve(message.value!);
  });
  child.on('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${name}: worker exited`));
    pending.clear();
  });
  return {
    name,
    run: (job) =>
      new Promise<number>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        child.send({ id, job });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
