import { spawn } from 'node:child_process';
import path from 'node:path';
import type { BenchSystem } from '../system';
import { median } from '../stats';
import type { Settings } from './in-memory';

/** The entries of the package, and the SDK alone for reference. */
const ENTRIES = [
  '@modelcontextprotocol/server',
  'mcp-reflect',
  'mcp-reflect/tasks',
  'mcp-reflect/redis',
  'mcp-reflect/builtins',
  'mcp-reflect/common',
  'mcp-reflect/testing',
  'mcp-reflect/nest',
  'mcp-reflect/auth-server',
];
/** Optional peers and heavy dependencies: which of them an entry loads. */
const WATCHED = ['class-validator', 'class-transformer', 'ajv', 'zod', 'ioredis', 'bullmq', '@nestjs/core', '@opentelemetry/api', 'oidc-provider', 'openid-client', 'jose', '@modelcontextprotocol/client', '@modelcontextprotocol/node'];

/** Run in a fresh `node`: reflect-metadata first (an application loads it anyway), then the entry, timed. */
const PROBE = `
require('reflect-metadata');
const before = new Set(Object.keys(require.cache));
const started = process.hrtime.bigint();
require(process.argv[1]);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const loaded = Object.keys(require.cache).filter((file) => !before.has(file));
const watched = ${JSON.stringify(WATCHED)}.filter((name) => loaded.some((file) => file.includes('/node_modules/' + name + '/')));
process.stdout.write(JSON.stringify({ ms, modules: loaded.length, watched }));
`;

/**
 * (p) mcp-reflect alone: what importing each entry costs in a fresh Node process (ms, median of `reps`), and
 * how many modules it loads; which optional peers and heavy dependencies it loads is printed. ESM-only
 * dependencies loaded with import() on first use do not show here (that is the point of them).
 */
export async function importCost(systems: readonly BenchSystem[], settings: Settings): Promise<Record<string, Record<string, number>>> {
  if (!systems.some((s) => s.name === 'mcp-reflect')) return {};
  const cwd = path.resolve(__dirname, '..', '..');
  const times: Record<string, number> = {};
  const modules: Record<string, number> = {};
  for (const entry of ENTRIES) {
    const samples: { ms: number; modules: number; watched: string[] }[] = [];
    for (let rep = 0; rep < settings.reps; rep++) samples.push(await probe(cwd, entry));
    times[entry] = median(samples.map((s) => s.ms));
    modules[entry] = median(samples.map((s) => s.modules));
    console.error(`    ${entry}: ${times[entry].toFixed(1)} ms, ${modules[entry]} modules${samples[0].watched.length ? `, loads ${samples[0].watched.join(', ')}` : ''}`);
  }
  return { 'import of each entry, fresh process (ms)': times, 'import of each entry, modules loaded': modules };
}

function probe(cwd: string, entry: string): Promise<{ ms: number; modules: number; watched: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', PROBE, entry], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`importing ${entry} failed (${code}): ${err.slice(0, 500)}`))));
  });
}
