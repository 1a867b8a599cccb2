import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { BenchSystem } from '../system';
import { alternate } from '../stats';
import type { Settings } from './in-memory';

/** (c) stdio cold start: spawn → first tools/list answered, 50 tools. Milliseconds (lower is better). */
export async function coldStart(systems: readonly BenchSystem[], settings: Settings) {
  const withStdio = systems.filter((s) => s.stdio);
  const medians = await alternate(withStdio, settings.reps, async (system) => {
    const { command, args } = system.stdio!(48);
    const started = performance.now();
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
    const { tools } = await client.listTools();
    const elapsed = performance.now() - started;
    await client.close();
    if (tools.length !== 50) throw new Error(`${system.name} listed ${tools.length} tools over stdio, not 50`);
    return elapsed;
  }, false);
  return { 'stdio cold start, 50 tools (ms)': Object.fromEntries(medians) };
}
