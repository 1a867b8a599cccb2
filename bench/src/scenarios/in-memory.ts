import type { BenchSystem } from '../system';
import { alternate } from '../stats';
import { startWorkers } from '../workers';

export interface Settings {
  readonly reps: number;
  readonly calls: number;
  /** Longest a single measurement runs (ms); slow systems make fewer calls instead of taking longer. */
  readonly maxMs: number;
  /** Repetitions of the in-memory scenarios (short measurements, many alternations; see run.ts). */
  readonly rounds: number;
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
        // One round not counted (JIT warm-up); each worker keeps one server for every round (see worker.ts).
        const medians = await alternate(systems, settings.rounds, (system) =>
          workers.get(system.name)!.run({ op: 'calls', tool, inFlight, calls: settings.calls, maxMs: settings.maxMs }),
        );
        results[key] = Object.fromEntries(medians);
      }
    }
    return results;
  } finally {
    await Promise.all([...workers.values()].map((w) => w.stop()));
  }
}
