import { fork } from 'node:child_process';
import path from 'node:path';
import type { OpenApiJob } from '../openapi-worker';
import type { BenchSystem } from '../system';
import { median } from '../stats';
import type { Settings } from './in-memory';

const WORKER = path.join(__dirname, '..', 'openapi-worker.js');
const OPERATIONS = 1_000;

/**
 * (o) mcp-reflect alone (no peer serves OpenAPI documents, and a baseline revision may predate
 * `fromOpenApi()`): the bootstrap of a server built from a 1,000-operation OpenAPI document, ms, the median of
 * `reps` bootstraps in each of `groups` fresh processes.
 */
export async function openApiBootstrap(systems: readonly BenchSystem[], settings: Settings): Promise<Record<string, Record<string, number>>> {
  if (!systems.some((s) => s.name === 'mcp-reflect')) return {};
  const samples: number[] = [];
  for (let group = 0; group < settings.groups; group++) samples.push(...(await inFreshProcess({ operations: OPERATIONS, reps: settings.reps })));
  return { 'bootstrap of a 1,000-operation OpenAPI document (ms)': { 'mcp-reflect': median(samples) } };
}

function inFreshProcess(job: OpenApiJob): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (answer: { samples?: number[]; error?: string }) => (answer.samples ? resolve(answer.samples) : reject(new Error(answer.error))));
    child.once('exit', (code) => code !== 0 && reject(new Error(`the OpenAPI bootstrap worker exited with ${code}`)));
    child.send(job);
  });
}
