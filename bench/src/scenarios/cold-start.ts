import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import path from 'node:path';
import { BASELINE_PREFIX } from '../baseline';
import { writePrecompiled } from '../precompiled';
import type { BenchSystem } from '../system';
import { fieldDtoStdio } from '../systems';
import { alternate } from '../stats';
import type { Settings } from './in-memory';

const FIELD_DTO = '@Field() DTO';
const PRECOMPILED = 'mcp-reflect, validators precompiled';
const isReflect = (name: string) => name === 'mcp-reflect' || name === 'mcp-reflect-nest' || name.startsWith(BASELINE_PREFIX);

/**
 * (c) stdio cold start: spawn → first tools/list answered, 50 tools. Milliseconds (lower is better). Measured
 * in the same alternation: mcp-reflect (and a baseline, `mcp-reflect@<rev>`, and mcp-reflect in Nest) with
 * the book DTO declared with @Field() instead of class-validator.
 */
export async function coldStart(systems: readonly BenchSystem[], settings: Settings) {
  const withStdio: Pick<BenchSystem, 'name' | 'stdio'>[] = systems.filter((s) => s.stdio);
  const reflects = withStdio.filter((s) => isReflect(s.name)).map((s) => s.name);
  for (const name of reflects) withStdio.push({ name: `${FIELD_DTO} ${name}`, stdio: fieldDtoStdio(name) });
  // mcp-reflect with its validators compiled ahead of time (`mcp-reflect validators`): none compiled at start.
  if (reflects.includes('mcp-reflect')) {
    const file = writePrecompiled();
    const server = path.join(__dirname, '..', 'servers', 'mcp-reflect-validators.server.js');
    withStdio.push({ name: PRECOMPILED, stdio: (extra) => ({ command: process.execPath, args: [server, String(extra), file] }) });
  }
  const medians = await alternate(withStdio, settings.reps, async (system) => {
    const { command, args, env } = system.stdio!(48);
    const started = performance.now();
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command, args, env, stderr: 'ignore' }));
    const { tools } = await client.listTools();
    const elapsed = performance.now() - started;
    await client.close();
    if (tools.length !== 50) throw new Error(`${system.name} listed ${tools.length} tools over stdio, not 50`);
    return elapsed;
  }, false);
  const fields = new Map(reflects.map((name) => [name, medians.get(`${FIELD_DTO} ${name}`)!]));
  for (const name of reflects) medians.delete(`${FIELD_DTO} ${name}`);
  const precompiled = medians.get(PRECOMPILED);
  medians.delete(PRECOMPILED);
  const table: Record<string, Record<string, number>> = { 'stdio cold start, 50 tools (ms)': Object.fromEntries(medians) };
  for (const [name, field] of fields) {
    table[`${name} stdio cold start by DTO style, 50 tools (ms)`] = {
      ...(medians.has('limit') ? { limit: medians.get('limit')! } : {}),
      'class-validator DTO (the table above)': medians.get(name)!,
      '@Field() DTO (class-validator never loaded)': field,
      ...(name === 'mcp-reflect' && precompiled !== undefined ? { 'class-validator DTO, validators precompiled': precompiled } : {}),
      ...(name === 'mcp-reflect' && medians.has('McpServer+zod') ? { 'McpServer+zod': medians.get('McpServer+zod')! } : {}),
    };
  }
  return table;
}
