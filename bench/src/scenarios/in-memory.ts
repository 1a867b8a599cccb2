import type { BenchSystem } from '../system';
import { alternate } from '../stats';
import { startWorkers } from '../workers';

export interface Settings {
  readonly reps: number;
  readonly calls: number;
  /** Longest a single measurement runs (ms); slow systems make fewer calls instead of taking longer. */
  readonly maxMs: number;
}

/** (a) tools/call in memory: calls per second, sequential and with 64 in flight. */
export async function inMemoryCalls(systems: readonly BenchSystem[], settings: Settings) {
  const workers = await startWorkers(systems.map((s) => s.name));
  try {
    for (const worker of workers.values()) await worker.run({ op: 'check' });
    const results: Record<string, Record<string, number>> = {};
    for (const tool of ['add', 'book'] as const) {
      for (const inFlight of [1, 64]) {
        const key = `${tool}, ${inFlight === 1 ? 'sequential' : `${inFlight} in flight`}`;
        const medians = await alternate(systems, settings.reps, (system) =>
          workers.get(system.name)!.run({ op: 'calls', tool, inFlight, calls: settings.calls, maxMs: settings.maxMs }),
          false, // each measurement warms its own connection first (see worker.ts)
        );
        results[key] = Object.fromEntries(medians);
      }
    }
    return results;
  } finally {
    await Promise.all([...workers.values()].map((w) => w.stop()));
  }
}
