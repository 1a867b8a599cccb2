import autocannon from 'autocannon';
import type { BenchSystem } from '../system';
import { median } from '../stats';
import { startWorkers } from '../workers';
import { HEADERS, startChild } from './http';

/**
 * (h, not in the default run) CPU time per call, where wall-clock ratios are too noisy to settle a target:
 * the process's CPU time (every thread, GC included) divided by the calls, in steady state. Each repetition
 * uses fresh processes, so that the per-process variation of V8's optimizations is sampled, not drawn once.
 */
export async function cpuChecks(systems: readonly BenchSystem[], settings: { reps: number; quick: boolean }) {
  const names = systems.map((s) => s.name);
  const cells = [
    { key: 'add, sequential', tool: 'add' as const, inFlight: 1 },
    { key: 'book, 64 in flight', tool: 'book' as const, inFlight: 64 },
  ];
  const warm = settings.quick ? 500 : 20_000;
  const calls = settings.quick ? 1_000 : 30_000;
  const samples = new Map<string, Map<string, number[]>>();
  const push = (key: string, name: string, value: number) => {
    if (!samples.has(key)) samples.set(key, new Map(names.map((n) => [n, []])));
    samples.get(key)!.get(name)!.push(value);
  };
  for (let rep = 0; rep < settings.reps; rep++) {
    const order = rep % 2 === 0 ? names : [...names].reverse();
    const workers = await startWorkers(names);
    try {
      for (const cell of cells) {
        for (const name of order) {
          const job = { op: 'cpu' as const, tool: cell.tool, inFlight: cell.inFlight, warm, calls };
          push(`${cell.key}, in memory (CPU µs per call)`, name, await workers.get(name)!.run(job));
        }
      }
    } finally {
      await Promise.all([...workers.values()].map((w) => w.stop()));
    }
    for (const system of order.map((name) => systems.find((s) => s.name === name)!)) {
      if (!system.httpStateless) continue;
      push('HTTP stateless tools/call, server CPU µs per request', system.name, await serverCpuPerRequest(system.name, settings.quick));
    }
  }
  return Object.fromEntries(
    [...samples].map(([key, bySystem]) => [key, Object.fromEntries([...bySystem].filter(([, v]) => v.length).map(([name, v]) => [name, median(v)]))]),
  );
}

/** A fresh server process under 32 connections: its CPU time over the measured seconds, per request (µs). */
async function serverCpuPerRequest(system: string, quick: boolean): Promise<number> {
  const child = await startChild(system, 'stateless');
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });
    const load = { url: child.url, method: 'POST' as const, headers: HEADERS, body, connections: 32 };
    await autocannon({ ...load, duration: quick ? 0.25 : 3 });
    const cpu = async () => {
      const reply = child.next('CPU=');
      child.process.stdin.write('cpu\n');
      return Number(await reply);
    };
    const before = await cpu();
    const result = await autocannon({ ...load, duration: quick ? 0.25 : 5 });
    const used = (await cpu()) - before;
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${system}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return used / result.requests.total;
  } finally {
    await child.stop();
  }
}
