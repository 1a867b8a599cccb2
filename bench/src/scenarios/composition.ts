import { fork } from 'node:child_process';
import path from 'node:path';
import type { CompositionJob, CompositionSamples } from '../composition-worker';
import type { BenchSystem } from '../system';
import { median } from '../stats';
import type { Settings } from './in-memory';

const WORKER = path.join(__dirname, '..', 'composition-worker.js');

/**
 * (m) Composition, mcp-reflect alone: `add` through `McpModule.proxy()` against the same tool called directly
 * (in memory: the remote in the same process over an in-memory pair; stdio: the remote a child process, the
 * direct client speaking stdio to it too), as µs per sequential call and the µs the proxy adds (target: at most
 * 1 000 in memory); and tools/list of 500 namespaced tools from five `forFeature({ namespace })` modules
 * against 500 tools of one module (lists per second; target ≥ 0.95×). `groups` fresh processes, `rounds`
 * alternations in each; the medians of every sample, and for the added cost the median of round-by-round
 * differences.
 */
export async function composition(systems: readonly BenchSystem[], settings: Settings): Promise<Record<string, Record<string, number>>> {
  if (!systems.some((s) => s.name === 'mcp-reflect')) return {};
  const job: CompositionJob = { rounds: settings.rounds, calls: Math.min(settings.calls, 2_000), maxMs: settings.maxMs };
  const pooled: CompositionSamples = {};
  for (let group = 0; group < settings.groups; group++) {
    for (const [name, values] of Object.entries(await inFreshProcess(job))) (pooled[name] ??= []).push(...values);
  }
  const pairs = (proxied: string, direct: string) => median(pooled[proxied].map((value, i) => value - pooled[direct][i]));
  const ratio = (a: string, b: string) => median(pooled[a].map((value, i) => value / pooled[b][i]));
  const m = (name: string) => median(pooled[name]);
  const one = 'tools/list, 500 tools of one module';
  const five = 'tools/list, 500 namespaced tools of five modules';
  return {
    '(m) composition: add through McpModule.proxy() and directly, µs per call': {
      'direct, in memory': m('direct, in memory'),
      'through a proxy, in memory': m('through a proxy, in memory'),
      'added by the proxy, in memory': pairs('through a proxy, in memory', 'direct, in memory'),
      'direct, stdio': m('direct, stdio'),
      'through a proxy, stdio': m('through a proxy, stdio'),
      'added by the proxy, stdio': pairs('through a proxy, stdio', 'direct, stdio'),
    },
    '(m) composition: tools/list of 500 tools, lists/s (five namespaced modules over one module)': {
      'one module': m(one),
      'five namespaced modules': m(five),
      'five over one (ratio)': ratio(five, one),
    },
  };
}

function inFreshProcess(job: CompositionJob): Promise<CompositionSamples> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (message: { ready?: true; samples?: CompositionSamples; error?: string }) => {
      if (message.ready) child.send(job);
      else if (message.samples) resolve(message.samples);
      else reject(new Error(`(m) composition: ${message.error}`));
    });
    child.once('exit', (code) => code !== 0 && reject(new Error(`(m) composition: the worker exited with ${code}`)));
  });
}
