import { fork } from 'node:child_process';
import path from 'node:path';
import type { DurableJob, DurableSamples } from '../durable-worker';
import { startRedisServer } from '../redis';
import type { BenchSystem } from '../system';
import { median } from '../stats';
import type { Settings } from './in-memory';

const WORKER = path.join(__dirname, '..', 'durable-worker.js');

/**
 * (n) Durable work, mcp-reflect alone: `ctx.state` get + set per call (memory store, Redis), task pickup (call
 * → run start) and short-task throughput on the in-memory store against a BullMQ queue on Redis. One fresh
 * process per group; the Redis rows need Debian's redis-server (skipped, said so, without it).
 */
export async function durable(systems: readonly BenchSystem[], settings: Settings & { quick: boolean }): Promise<Record<string, Record<string, number>>> {
  if (!systems.some((s) => s.name === 'mcp-reflect')) return {};
  const redis = await startRedisServer();
  if (!redis) console.error('  (n) no redis-server: only the in-memory rows');
  try {
    const job: DurableJob = { ...(redis ? { redisUrl: redis.url } : {}), rounds: settings.rounds, calls: settings.quick ? 100 : 2_000, tasks: settings.quick ? 20 : 200 };
    const pooled: DurableSamples = {};
    for (let group = 0; group < settings.groups; group++) {
      for (const [name, values] of Object.entries(await inFreshProcess(job))) (pooled[name] ??= []).push(...values);
    }
    // Costs (lower is better) and throughput (higher is better) in tables of their own, per store.
    const row = (prefix: string, throughput: boolean) =>
      Object.fromEntries(
        Object.entries(pooled)
          .filter(([name]) => name.startsWith(prefix) && name.includes('tasks/s') === throughput)
          .map(([name, values]) => [name.slice(prefix.length), median(values)]),
      );
    const stores = [['memory: ', 'in memory'], ...(redis ? [['redis: ', 'on Redis (RedisStateStore, RedisTaskStore + RedisTaskQueue)']] : [])];
    return Object.fromEntries(
      stores.flatMap(([prefix, where]) => [
        [`(n) durable work ${where}: costs (µs per call, ms)`, row(prefix, false)],
        [`(n) durable work ${where}: throughput`, row(prefix, true)],
      ]),
    );
  } finally {
    await redis?.stop();
  }
}

function inFreshProcess(job: DurableJob): Promise<DurableSamples> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (message: { ready?: true; samples?: DurableSamples; error?: string }) => {
      if (message.ready) child.send(job);
      else if (message.samples) resolve(message.samples);
      else reject(new Error(`(n) durable work: ${message.error}`));
    });
    child.once('exit', (code) => code !== 0 && reject(new Error(`(n) durable work: the worker exited with ${code}`)));
  });
}
