import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { BenchSystem } from '../system';
import { alternate } from '../stats';
import type { Settings } from './in-memory';

const FIELD_DTO = '@Field() DTO';

/**
 * (c) stdio cold start: spawn → first tools/list answered, 50 tools. Milliseconds (lower is better). Measured
 * in the same alternation: mcp-reflect with the book DTO declared with @Field() instead of class-validator.
 */
export async function coldStart(systems: readonly BenchSystem[], settings: Settings) {
  const withStdio: Pick<BenchSystem, 'name' | 'stdio'>[] = systems.filter((s) => s.stdio);
  if (withStdio.some((s) => s.name === 'mcp-reflect')) {
    const server = path.join(__dirname, '..', 'servers', 'mcp-reflect-field.server.js');
    withStdio.push({ name: FIELD_DTO, stdio: (extra) => ({ command: process.execPath, args: [server, String(extra)] }) });
  }
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
  const field = medians.get(FIELD_DTO);
  medians.delete(FIELD_DTO);
  const table: Record<string, Record<string, number>> = { 'stdio cold start, 50 tools (ms)': Object.fromEntries(medians) };
  if (field !== undefined) {
    table['mcp-reflect stdio cold start by DTO style, 50 tools (ms)'] = {
      limit: medians.get('limit')!,
      'class-validator DTO (the table above)': medians.get('mcp-reflect')!,
      '@Field() DTO (class-validator never loaded)': field,
    };
  }
  return table;
}
