import { fork, type ChildProcess } from 'node:child_process';
import { benchFile } from './baseline';
import { alternateSamples, summarize } from './stats';
import type { Job } from './worker';

/** The parent's handle on one system's measuring process. */
export interface Worker {
  readonly name: string;
  run(job: Job): Promise<number>;
  stop(): Promise<void>;
}

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
  const child: ChildProcess = fork(benchFile(name, 'worker.js'), [name], { execArgv: ['--expose-gc', ...profile(name)], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

/**
 * Measures each cell in `groups` successive sets of fresh worker processes (one per system): in each set one
 * uncounted round, then `rounds` rounds alternating the systems; the median per cell and system is taken
 * over the samples of every set. A system's speed moves by 10–20% from one process to the next (V8 decides
 * its optimizations per process, on the SDK's code as much as on the system's): one process per system
 * for the whole run would draw that once, several sample it. Paired ratios are taken against `reference`.
 */
export async function measureInProcessGroups<S extends { name: string }>(
  systems: readonly S[],
  groups: number,
  rounds: number,
  cells: Record<string, Job>,
  prepare: (worker: Worker) => Promise<unknown> = async () => undefined,
  reference = 'limit',
): Promise<Record<string, Record<string, number>>> {
  const pooled = Object.fromEntries(Object.keys(cells).map((cell) => [cell, new Map(systems.map((s) => [s.name, [] as number[]]))]));
  for (let group = 0; group < groups; group++) {
    const workers = await startWorkers(systems.map((s) => s.name));
    try {
      for (const worker of workers.values()) await prepare(worker);
      for (const [cell, job] of Object.entries(cells)) {
        const samples = await alternateSamples(systems, rounds, (system) => workers.get(system.name)!.run(job));
        for (const [name, values] of samples) pooled[cell].get(name)!.push(...values);
      }
    } finally {
      await Promise.all([...workers.values()].map((w) => w.stop()));
    }
  }
  return Object.fromEntries(Object.entries(pooled).map(([cell, samples]) => [cell, summarize(cell, samples, reference)]));
}
