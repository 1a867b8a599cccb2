import type { BenchSystem } from '../system';
import { alternate } from '../stats';
import type { Settings } from './in-memory';

/** (b) tools/list with 50 and 500 tools: lists per second (sequential). */
export async function toolsList(systems: readonly BenchSystem[], settings: Settings) {
  const results: Record<string, Record<string, number>> = {};
  for (const total of [50, 500]) {
    const connected = new Map(await Promise.all(systems.map(async (s) => [s.name, await s.inMemory(total - 2)] as const)));
    try {
      const lists = Math.max(20, Math.floor(settings.calls / (total / 10)));
      const medians = await alternate(systems, settings.reps, async (system) => {
        const { client } = connected.get(system.name)!;
        const started = performance.now();
        for (let i = 0; i < lists; i++) await client.request({ method: 'tools/list', params: {} });
        return lists / ((performance.now() - started) / 1000);
      });
      results[`tools/list, ${total} tools`] = Object.fromEntries(medians);
    } finally {
      for (const { close } of connected.values()) await close();
    }
  }
  return results;
}
