import type { BenchSystem } from '../system';
import type { Job } from '../worker';
import { measureInProcessGroups, type Worker } from '../workers';

export interface Settings {
  readonly reps: number;
  readonly calls: number;
  /** Longest a single measurement runs (ms); slow systems make fewer calls instead of taking longer. */
  readonly maxMs: number;
  /** The in-memory scenarios run in `groups` sets of fresh processes, `rounds` alternations in each. */
  readonly groups: number;
  readonly rounds: number;
}

/** (a) tools/call in memory: calls per second, sequential and with 64 in flight. */
export async function inMemoryCalls(systems: readonly BenchSystem[], settings: Settings) {
  const cells: Record<string, Job> = {};
  for (const tool of ['add', 'book'] as const) {
    for (const inFlight of [1, 64]) {
      // Each worker keeps one server for every round (see worker.ts).
      cells[`${tool}, ${inFlight === 1 ? 'sequential' : `${inFlight} in flight`}`] = { op: 'calls', tool, inFlight, calls: settings.calls, maxMs: settings.maxMs };
    }
  }
  // A fresh process warms every cell once before the first is measured (JIT, and the heap's sizing).
  const prepare = async (worker: Worker) => {
    await worker.run({ op: 'check' });
    for (const job of Object.values(cells)) await worker.run(job);
  };
  return measureInProcessGroups(systems, settings.groups, settings.rounds, cells, prepare);
}
