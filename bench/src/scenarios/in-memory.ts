import type { Client } from '@modelcontextprotocol/client';
import { ADD_ARGS, BOOK_ARGS, BOOK_TEXT, type BenchSystem, type Connected } from '../system';
import { alternate } from '../stats';

export interface Settings {
  readonly reps: number;
  readonly calls: number;
}

/** (a) tools/call in memory: calls per second, sequential and with 64 in flight. */
export async function inMemoryCalls(systems: readonly BenchSystem[], settings: Settings) {
  for (const system of systems) {
    const connected = await system.inMemory(0);
    await check(system.name, connected.client);
    await connected.close();
  }
  const results: Record<string, Record<string, number>> = {};
  for (const tool of ['add', 'book'] as const) {
    for (const inFlight of [1, 64]) {
      const args = tool === 'add' ? ADD_ARGS : BOOK_ARGS;
      const key = `${tool}, ${inFlight === 1 ? 'sequential' : `${inFlight} in flight`}`;
      // Only the measured system is loaded while it runs, so the others' garbage does not weigh on it.
      const medians = await alternate(systems, settings.reps, async (system) => {
        const connected: Connected = await system.inMemory(0);
        try {
          await callsPerSecond(connected.client, tool, args, Math.min(200, settings.calls), inFlight); // warm this instance
          return await callsPerSecond(connected.client, tool, args, settings.calls, inFlight);
        } finally {
          await connected.close();
        }
      });
      results[key] = Object.fromEntries(medians);
    }
  }
  return results;
}

async function check(name: string, client: Client): Promise<void> {
  const add = await client.callTool({ name: 'add', arguments: ADD_ARGS });
  const book = await client.callTool({ name: 'book', arguments: BOOK_ARGS });
  const text = (r: typeof add) => (r.content as { text: string }[])[0]?.text;
  if (text(add) !== '5' || text(book) !== BOOK_TEXT) {
    throw new Error(`${name} does not serve the benchmark tools as specified: ${text(add)} / ${text(book)}`);
  }
}

async function callsPerSecond(client: Client, tool: string, args: object, calls: number, inFlight: number): Promise<number> {
  const request = { method: 'tools/call' as const, params: { name: tool, arguments: args } };
  let next = 0;
  const worker = async () => {
    while (next < calls) {
      next++;
      await client.request(request);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return calls / ((performance.now() - started) / 1000);
}
