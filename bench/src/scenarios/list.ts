import type { BenchSystem } from '../system';
import { alternate } from '../stats';
import { startWorkers } from '../workers';
import type { Settings } from './in-memory';

/** (b) tools/list with 50 and 500 tools: lists per second (sequential). */
export async function toolsList(systems: readonly BenchSystem[], settings: Settings) {
  const workers = await startWorkers(systems.map((s) => s.name));
  try {
    const results: Record<string, Record<string, number>> = {};
    for (const total of [50, 500]) {
      const lists = settings.calls; // in practice bounded by maxMs: every system lists for the same time
      // Each worker warms its server when it makes it (see worker.ts); one round is not counted.
      const medians = await alternate(systems, settings.rounds, (system) =>
        workers.get(system.name)!.run({ op: 'list', total, lists, maxMs: settings.maxMs }),
      );
      results[`tools/list, ${total} tools`] = Object.fromEntries(medians);
    }
    return results;
  } finally {
    await Promise.all([...workers.values()].map((w) => w.stop()));
  }
}
