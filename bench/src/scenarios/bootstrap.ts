import type { BenchSystem } from '../system';
import { alternate } from '../stats';
import { startWorkers } from '../workers';
import type { Settings } from './in-memory';

/** (f) bootstrap time with 10, 100 and 1,000 tools (ms, lower is better), each system in its own process. */
export async function bootstrapTimes(systems: readonly BenchSystem[], settings: Settings) {
  const withBootstrap = systems.filter((s) => s.bootstrap);
  const workers = await startWorkers(withBootstrap.map((s) => s.name));
  try {
    const results: Record<string, Record<string, number>> = {};
    for (const tools of [10, 100, 1000]) {
      const medians = await alternate(withBootstrap, settings.reps, (system) => workers.get(system.name)!.run({ op: 'bootstrap', tools }));
      results[`bootstrap, ${tools} tools (ms)`] = Object.fromEntries(medians);
    }
    return results;
  } finally {
    await Promise.all([...workers.values()].map((w) => w.stop()));
  }
}

/**
 * (f) variants of `add` in memory through the client, µs per call: a singleton, a request-scoped class, and
 * a singleton with one guard and one interceptor (the pipeline's cost over the plain path).
 */
export async function requestScope(settings: Settings) {
  const workers = await startWorkers(['mcp-reflect']);
  const worker = workers.get('mcp-reflect')!;
  try {
    const variants = [
      { name: 'singleton', tool: 'add' },
      { name: 'request-scoped', tool: 'addScoped' },
      { name: 'one guard + one interceptor', tool: 'addEnhanced' },
    ];
    const medians = await alternate(variants, settings.reps, ({ tool }) => worker.run({ op: 'scoped', tool, calls: settings.calls }));
    return { 'mcp-reflect add variants, µs per call (in memory)': Object.fromEntries(medians) };
  } finally {
    await worker.stop();
  }
}
