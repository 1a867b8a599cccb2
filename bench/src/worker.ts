import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/client';
import { ADD_ARGS, BOOK_ARGS, BOOK_TEXT, type BenchSystem, type Connected } from './system';
import { rawLister } from './raw-list';
import { loadSystem } from './systems';

/**
 * One system in its own process, measured on request from the parent (IPC). A production server runs one
 * framework, so the measured one shares neither its heap nor its JIT profile with the others.
 */
export type Job =
  | { op: 'check' }
  | { op: 'calls'; tool: string; inFlight: number; calls: number; maxMs: number; variants?: boolean }
  | { op: 'list'; total: number; lists: number; maxMs: number }
  | { op: 'cpu'; tool: string; inFlight: number; warm: number; calls: number; variants?: boolean }
  | { op: 'bootstrap'; tools: number; precompiled?: boolean; onFirstUse?: boolean }
  | { op: 'scoped'; tool: string; calls: number };

const system: BenchSystem = loadSystem(process.argv[2]);
const lists = new Map<number, Promise<Connected & { list: () => Promise<string> }>>();
let calls: Promise<Connected> | undefined;
let variants: Promise<Connected> | undefined;

/**
 * The server every `calls` and `cpu` job of this process uses, kept: the plain one (add, book), or with
 * `variants` the one that also serves the add variants (`addScoped`, `addEnhanced`: see `BenchSystem.inMemory`).
 */
function server(job: { variants?: boolean }): Promise<Connected> {
  return job.variants ? (variants ??= system.inMemory(0, { scoped: true })) : (calls ??= system.inMemory(0));
}

async function run(job: Job): Promise<number> {
  switch (job.op) {
    case 'check':
      return check();
    case 'calls': {
      // One server for every repetition, as a production server lives: measured in its steady state.
      const { client } = await server(job);
      const args = job.tool === 'book' ? BOOK_ARGS : ADD_ARGS;
      await callsPerSecond(client, job.tool, args, Math.min(200, job.calls), job.inFlight, job.maxMs);
      return callsPerSecond(client, job.tool, args, job.calls, job.inFlight, job.maxMs);
    }
    case 'cpu': {
      // CPU time of this process (every thread: GC included) per call, in steady state: µs.
      const { client } = await server(job);
      const args = job.tool === 'book' ? BOOK_ARGS : ADD_ARGS;
      await callsPerSecond(client, job.tool, args, job.warm, job.inFlight, Infinity);
      const before = process.cpuUsage();
      await callsPerSecond(client, job.tool, args, job.calls, job.inFlight, Infinity);
      const used = process.cpuUsage(before);
      return (used.user + used.system) / job.calls;
    }
    case 'list': {
      // One server per catalogue size, kept for every repetition, warmed when it is made.
      if (!lists.has(job.total)) {
        lists.set(
          job.total,
          system.inMemory(job.total - 2).then(async (connected) => {
            const list = rawLister(connected.transport);
            const first = JSON.parse(await list()) as { result?: { tools?: unknown[] } };
            if (first.result?.tools?.length !== job.total) {
              throw new Error(`${system.name} lists ${first.result?.tools?.length} tools, not ${job.total}: ${JSON.stringify(first).slice(0, 200)}`);
            }
            await rate(job.lists, job.maxMs, list); // warms it for one measurement's time
            return { ...connected, list };
          }),
        );
      }
      const { list } = await lists.get(job.total)!;
      return rate(job.lists, job.maxMs, list);
    }
    case 'bootstrap':
      return system.bootstrap!(job.tools, { precompiled: job.precompiled, onFirstUse: job.onFirstUse });
    case 'scoped': {
      const connected = await system.inMemory(0, { scoped: true });
      try {
        const request = { method: 'tools/call' as const, params: { name: job.tool, arguments: ADD_ARGS } };
        for (let i = 0; i < 200; i++) await connected.client.request(request);
        const started = performance.now();
        for (let i = 0; i < job.calls; i++) await connected.client.request(request);
        return ((performance.now() - started) * 1000) / job.calls;
      } finally {
        await connected.close();
      }
    }
  }
}

async function check(): Promise<number> {
  const { client, close } = await system.inMemory(0);
  try {
    const add = await client.callTool({ name: 'add', arguments: ADD_ARGS });
    const book = await client.callTool({ name: 'book', arguments: BOOK_ARGS });
    const text = (r: typeof add) => (r.content as { text: string }[])[0]?.text;
    if (text(add) !== '5' || text(book) !== BOOK_TEXT) {
      throw new Error(`${system.name} does not serve the benchmark tools as specified: ${text(add)} / ${text(book)}`);
    }
    return 1;
  } finally {
    await close();
  }
}

/** Calls per second: `calls` calls with `inFlight` concurrent callers, or as many as fit in `maxMs`. */
async function callsPerSecond(client: Client, tool: string, args: object, calls: number, inFlight: number, maxMs: number): Promise<number> {
  const request = { method: 'tools/call' as const, params: { name: tool, arguments: args } };
  const started = performance.now();
  let sent = 0;
  let done = 0;
  const worker = async () => {
    while (sent < calls && performance.now() - started < maxMs) {
      sent++;
      await client.request(request);
      done++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return done / ((performance.now() - started) / 1000);
}

async function rate(times: number, maxMs: number, once: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let done = 0;
  while (done < times && performance.now() - started < maxMs) {
    await once();
    done++;
  }
  return done / ((performance.now() - started) / 1000);
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();

process.on('message', (message: { id: number; job: Job }) => {
  gc(); // each measurement starts from a clean heap
  run(message.job).then(
    // ...and leaves one: its garbage is collected now, not by background GC threads during the next
    // system's measurement (on a 2-core machine those would steal its CPU).
    (value) => settle().then(() => process.send!({ id: message.id, value })),
    (error: unknown) => process.send!({ id: message.id, error: error instanceof Error ? error.stack : String(error) }),
  );
});

async function settle(): Promise<void> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 20)); // lets concurrent sweeping finish
}
process.on('disconnect', () => {
  void Promise.all([...lists.values(), ...(calls ? [calls] : []), ...(variants ? [variants] : [])].map(async (c) => (await c).close())).finally(() => process.exit(0));
});
process.send!({ ready: true });
