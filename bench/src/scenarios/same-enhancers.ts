import type { BenchSystem } from '../system';
import { median, PAIRED_RATIOS } from '../stats';
import type { Job } from '../worker';
import { measureInProcessGroups, startWorkers, type Worker } from '../workers';
import type { Settings } from './in-memory';

const STANDALONE = 'mcp-reflect';
const NEST = 'mcp-reflect-nest';

/** The add variants both systems serve (`BenchSystem.inMemory(0, { scoped: true })`), as columns. */
const VARIANTS = [
  { column: 'add', tool: 'add', inFlight: 1 },
  { column: 'add + guard + interceptor', tool: 'addEnhanced', inFlight: 1 },
  { column: 'add + guard + interceptor, 64 in flight', tool: 'addEnhanced', inFlight: 64 },
  { column: 'request-scoped add', tool: 'addScoped', inFlight: 1 },
] as const;

/** The variants whose CPU time per call is measured too (the steadier measure for a difference of a few %). */
const CPU_VARIANTS = VARIANTS.filter((v) => v.inFlight === 1 && v.tool !== 'addScoped');

/**
 * (k) mcp-reflect in Nest against standalone mcp-reflect with the same enhancers, in memory through the SDK
 * client: `add` plain, with one guard and one interceptor (standalone: mcp-reflect's `@UseGuards()` and
 * `@UseInterceptors()`; in Nest: a Nest guard and a Nest interceptor from `@nestjs/common` doing the same
 * trivial work, run by Nest's consumers), at 1 and 64 in flight, and on a request-scoped class (standalone:
 * mcp-reflect's `Scope.REQUEST`; in Nest: a Nest `Scope.REQUEST` provider, built through a context id per call).
 *
 * Calls per second in `groups` sets of fresh worker processes, `rounds` alternations in each (as (a)), the
 * ratio being the median of round-by-round ratios of Nest's sample over the standalone one's; then the CPU
 * time per call in steady state (as (h)), fresh processes per repetition, as a throughput-equivalent ratio
 * (standalone µs over Nest's µs, so that for both measures 1.00× is level and below it is slower in Nest).
 * Runs only when both systems are measured.
 */
export async function sameEnhancers(systems: readonly BenchSystem[], settings: Settings & { quick: boolean }) {
  if (!systems.some((s) => s.name === STANDALONE) || !systems.some((s) => s.name === NEST)) {
    console.error(`  (k) skipped: it compares ${NEST} with ${STANDALONE}; measure both (--systems=…,${STANDALONE},${NEST})`);
    return {};
  }
  const pair = systems.filter((s) => s.name === STANDALONE || s.name === NEST);
  const cellOf = (column: string) => `same enhancers: ${column}, in memory (calls/s)`;
  const cells: Record<string, Job> = Object.fromEntries(
    VARIANTS.map((v) => [cellOf(v.column), { op: 'calls', tool: v.tool, inFlight: v.inFlight, calls: settings.calls, maxMs: settings.maxMs, variants: true }]),
  );
  const prepare = async (worker: Worker) => {
    for (const job of Object.values(cells)) await worker.run(job);
  };
  const rates = await measureInProcessGroups(pair, settings.groups, settings.rounds, cells, prepare, STANDALONE);
  const cpu = await cpuPerCall(pair.map((s) => s.name), settings.quick ? 1 : settings.groups, settings.quick);

  const label = { [STANDALONE]: 'mcp-reflect (standalone)', [NEST]: 'mcp-reflect in Nest' };
  const row = (values: (column: string) => number, columns: readonly { column: string }[]) => Object.fromEntries(columns.map((v) => [v.column, values(v.column)]));
  const tables: Record<string, Record<string, number>> = {};
  tables['(k) same enhancers: mcp-reflect in Nest over standalone mcp-reflect, in memory (ratio; 1.00 is level)'] = {
    ...Object.fromEntries(VARIANTS.map((v) => [`${v.column} (calls/s)`, PAIRED_RATIOS.get(cellOf(v.column))?.[NEST] ?? rates[cellOf(v.column)][NEST] / rates[cellOf(v.column)][STANDALONE]])),
    ...Object.fromEntries(CPU_VARIANTS.map((v) => [`${v.column} (CPU time, throughput-equivalent)`, cpu.ratios.get(v.column)!])),
  };
  for (const name of [STANDALONE, NEST] as const) {
    tables[`(k) ${label[name]}, add variants, in memory (calls/s)`] = row((column) => rates[cellOf(column)][name], VARIANTS);
    tables[`(k) ${label[name]}, add variants, in memory, CPU µs per call`] = row((column) => cpu.perCall.get(column)!.get(name)!, CPU_VARIANTS);
  }
  return tables;
}

/**
 * CPU time of the worker process per call (µs, every thread, GC included) in steady state, each repetition in
 * fresh processes, the two systems alternating; per variant the median, and the median of the repetitions'
 * ratios (standalone over Nest).
 */
async function cpuPerCall(names: readonly string[], reps: number, quick: boolean) {
  const warm = quick ? 500 : 10_000;
  const calls = quick ? 1_000 : 20_000;
  const samples = new Map<string, Map<string, number[]>>(CPU_VARIANTS.map((v) => [v.column, new Map(names.map((n) => [n, [] as number[]]))]));
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? names : [...names].reverse();
    const workers = await startWorkers(names);
    try {
      for (const v of CPU_VARIANTS) {
        for (const name of order) {
          const job: Job = { op: 'cpu', tool: v.tool, inFlight: v.inFlight, warm, calls, variants: true };
          samples.get(v.column)!.get(name)!.push(await workers.get(name)!.run(job));
        }
      }
    } finally {
      await Promise.all([...workers.values()].map((w) => w.stop()));
    }
  }
  const perCall = new Map([...samples].map(([column, bySystem]) => [column, new Map([...bySystem].map(([name, values]) => [name, median(values)]))]));
  const ratios = new Map(
    [...samples].map(([column, bySystem]) => {
      const standalone = bySystem.get(STANDALONE)!;
      return [column, median(bySystem.get(NEST)!.map((nest, i) => standalone[i] / nest))];
    }),
  );
  return { perCall, ratios };
}
