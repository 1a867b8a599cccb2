import { BASELINE_PREFIX } from './baseline';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs `measure` for every system, alternating A/B/A/B within each repetition (so drift and warm-up hit all
 * systems alike), and returns the median per system.
 */
export async function alternate<S extends { name: string }>(
  systems: readonly S[],
  reps: number,
  measure: (system: S) => Promise<number>,
  warmUp = true,
): Promise<Map<string, number>> {
  const samples = await alternateSamples(systems, reps, measure, warmUp);
  if (process.env.BENCH_SAMPLES) printSamples(samples);
  return new Map([...samples].map(([name, values]) => [name, median(values)]));
}

/** What `alternate` measures, every sample kept. */
export async function alternateSamples<S extends { name: string }>(
  systems: readonly S[],
  reps: number,
  measure: (system: S) => Promise<number>,
  warmUp = true,
): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(systems.map((s) => [s.name, []]));
  // Warm-up (JIT, caches), not counted; measurements in fresh processes skip it.
  if (warmUp) for (const system of systems) await measure(system);
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? systems : [...systems].reverse();
    for (const system of order) {
      (globalThis as { gc?: () => void }).gc?.(); // each system starts from a clean heap
      samples.get(system.name)!.push(await measure(system));
    }
  }
  return samples;
}

/** `BENCH_SAMPLES=1`: every sample behind a median, on stderr. */
function printSamples(samples: Map<string, number[]>): void {
  for (const [name, values] of samples) console.error(`    ${name}: ${values.map((v) => v.toPrecision(4)).join(' ')}`);
}

/**
 * Ratios against the limit taken round by round (each system's sample over the limit's sample of the same
 * round, measured moments apart), then the median: the machine's drift over a run cancels in each pair,
 * where a ratio of two medians would mix samples from faster and slower minutes. Filled by the scenarios
 * that alternate in rounds, per cell; the report prefers them to the ratio of medians.
 */
export const PAIRED_RATIOS = new Map<string, Record<string, number>>();

/**
 * mcp-reflect over its baseline (`--baseline=<rev>`, `mcp-reflect@<rev>`), per cell measured in rounds: the
 * median of round-by-round ratios of the current tree's sample over the baseline's, as PAIRED_RATIOS.
 */
export const BASELINE_RATIOS = new Map<string, number>();

function pairedRatios(samples: Map<string, number[]>, reference = 'limit'): Record<string, number> | undefined {
  const base = samples.get(reference);
  if (!base?.length) return undefined;
  return Object.fromEntries([...samples].map(([name, values]) => [name, median(values.map((value, i) => value / base[i]))]));
}

/**
 * A cell measured in rounds: its medians per system; its paired ratios (against `reference`, the limit unless
 * said otherwise) go to PAIRED_RATIOS.
 */
export function summarize(cell: string, samples: Map<string, number[]>, reference = 'limit'): Record<string, number> {
  if (process.env.BENCH_SAMPLES) printSamples(samples);
  const ratios = pairedRatios(samples, reference);
  if (ratios) PAIRED_RATIOS.set(cell, ratios);
  const baseline = [...samples.keys()].find((name) => name.startsWith(BASELINE_PREFIX));
  const current = baseline && samples.get('mcp-reflect')?.length ? pairedRatios(samples, baseline)?.['mcp-reflect'] : undefined;
  if (current !== undefined) BASELINE_RATIOS.set(cell, current);
  return Object.fromEntries([...samples].map(([name, values]) => [name, median(values)]));
}
