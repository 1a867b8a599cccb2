import 'reflect-metadata';
import Redis from 'ioredis';
import { Ctx, Injectable, McpModule, Module, Param, Tool, type Context } from 'mcp-reflect';
import { InMemoryTaskStore } from 'mcp-reflect/tasks';
import { RedisTaskStore } from 'mcp-reflect/redis';
import { RedisStateStore, RedisTaskQueue } from 'mcp-reflect/redis';
import { createTestClient, taskCalls } from 'mcp-reflect/testing';

/**
 * The durable-work rows (n), measured in this process (forked by scenarios/durable.ts): `ctx.state` get+set per
 * call against the same tool without it (the memory store, then Redis), and tasks — from the call to the run's
 * start (pickup), and short tasks through to their results (throughput) — on the in-memory store against a BullMQ
 * queue on Redis (this process's worker), each variant in alternation, `rounds` times.
 */
export interface DurableJob {
  readonly redisUrl?: string;
  readonly rounds: number;
  readonly calls: number;
  readonly tasks: number;
}
export type DurableSamples = Record<string, number[]>;

@Injectable()
class StateTools {
  @Tool()
  plain(@Param() n: number): number {
    return n;
  }

  @Tool()
  async visit(@Param() n: number, @Ctx() ctx: Context): Promise<number> {
    const seen = ((await ctx.state.get<number>('seen')) ?? 0) + n;
    await ctx.state.set('seen', seen);
    return seen;
  }

  /** A task that reports when its run started (Date.now(), ms). */
  @Tool({ task: 'required' })
  started(): string {
    return String(performance.timeOrigin + performance.now());
  }
}

function moduleOf(options: Record<string, unknown>): Function {
  @Module({ imports: [McpModule.forRoot({ name: 'durable-bench', version: '1.0.0', ...options })], providers: [StateTools] })
  class DurableBench {}
  return DurableBench;
}

async function perCall(client: Awaited<ReturnType<typeof createTestClient>>, tool: string, calls: number): Promise<number> {
  const request = { method: 'tools/call' as const, params: { name: tool, arguments: { n: 1 } } };
  const started = performance.now();
  for (let i = 0; i < calls; i++) await client.request(request);
  return ((performance.now() - started) * 1000) / calls;
}

const BOUNDS = { maxTasksPerClient: 100_000, maxTasks: 100_000 };

async function run(job: DurableJob): Promise<DurableSamples> {
  const samples: DurableSamples = {};
  const add = (name: string, value: number) => void (samples[name] ??= []).push(value);
  const redis = job.redisUrl ? new Redis(job.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  const url = job.redisUrl ? new URL(job.redisUrl) : undefined;
  const clients = {
    // One client starts every task of the run (tasks count against it until their TTL): bounds for that many.
    memory: await createTestClient(moduleOf({ tasks: { store: new InMemoryTaskStore(BOUNDS), pollIntervalMs: 10 } }), { capabilities: { tasks: {} } as never }),
    ...(redis && url
      ? {
          redis: await createTestClient(
            moduleOf({
              state: { store: new RedisStateStore(redis, { prefix: 'bench-state:' }) },
              tasks: {
                store: new RedisTaskStore(redis, { prefix: 'bench-tasks:', ...BOUNDS }),
                queue: new RedisTaskQueue({ connection: { host: url.hostname, port: Number(url.port), maxRetriesPerRequest: null }, name: 'bench-tasks' }),
                pollIntervalMs: 10,
              },
            }),
            { capabilities: { tasks: {} } as never },
          ),
        }
      : {}),
  };
  try {
    for (let round = 0; round <= job.rounds; round++) {
      for (const [store, client] of Object.entries(clients)) {
        const plain = await perCall(client, 'plain', job.calls);
        const visit = await perCall(client, 'visit', job.calls);
        const tasks = taskCalls(client);
        let pickup = 0;
        for (let i = 0; i < Math.min(job.tasks, 20); i++) {
          const sent = performance.timeOrigin + performance.now();
          const outcome = await tasks.call({ name: 'started', arguments: {} });
          if (!('task' in outcome)) throw new Error('started was not run as a task');
          const result = await tasks.result(outcome.task.taskId, { timeout: 30_000 });
          pickup += Number((result.content as { text: string }[])[0]!.text) - sent;
        }
        const begun = performance.now();
        const created = await Promise.all(Array.from({ length: job.tasks }, () => tasks.call({ name: 'started', arguments: {} })));
        await Promise.all(created.map((outcome) => ('task' in outcome ? tasks.result(outcome.task.taskId, { timeout: 60_000 }) : undefined)));
        const throughput = job.tasks / ((performance.now() - begun) / 1000);
        if (round === 0) continue; // warm-up
        add(`${store}: tool without ctx.state (µs per call)`, plain);
        add(`${store}: ctx.state get + set (µs added per call)`, visit - plain);
        add(`${store}: task pickup (ms, call to run start)`, pickup / Math.min(job.tasks, 20));
        add(`${store}: short tasks (tasks/s, ${job.tasks} at once)`, throughput);
      }
    }
  } finally {
    for (const client of Object.values(clients)) await client.close();
    await redis?.quit();
  }
  return samples;
}

process.once('message', (job: DurableJob) => {
  run(job).then(
    (samples) => process.send!({ samples }, () => process.exit(0)),
    (error: unknown) => process.send!({ error: error instanceof Error ? error.stack : String(error) }, () => process.exit(1)),
  );
});
process.send!({ ready: true });
