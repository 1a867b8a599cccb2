import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpFactory } from 'mcp-reflect';
import { reflectModule } from '../systems/mcp-reflect';
import { ADD_ARGS, type BenchSystem } from '../system';
import { alternate } from '../stats';
import type { Settings } from './in-memory';

/** (f) bootstrap time with 10, 100 and 1,000 tools (ms, lower is better). */
export async function bootstrapTimes(systems: readonly BenchSystem[], settings: Settings) {
  const results: Record<string, Record<string, number>> = {};
  const withBootstrap = systems.filter((s) => s.bootstrap);
  for (const tools of [10, 100, 1000]) {
    const medians = await alternate(withBootstrap, settings.reps, (system) => system.bootstrap!(tools));
    results[`bootstrap, ${tools} tools (ms)`] = Object.fromEntries(medians);
  }
  return results;
}

/** (f) a request-scoped tool class vs a singleton, in memory through the client: calls per second. */
export async function requestScope(settings: Settings) {
  const app = await McpFactory.create(reflectModule(0, true));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await app.connect(serverTransport);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientTransport);
  try {
    const variants = [{ name: 'singleton', tool: 'add' }, { name: 'request-scoped', tool: 'addScoped' }];
    const medians = await alternate(variants, settings.reps, async ({ tool }) => {
      const started = performance.now();
      for (let i = 0; i < settings.calls; i++) await client.request({ method: 'tools/call', params: { name: tool, arguments: ADD_ARGS } });
      return ((performance.now() - started) * 1000) / settings.calls;
    });
    return { 'mcp-reflect add, µs per call (in memory)': Object.fromEntries(medians) };
  } finally {
    await client.close();
    await app.close();
  }
}
