import Redis from 'ioredis';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { waitFor } from '../support/waiting';
import { modernClient, TASKS } from './modern-wire';

const MIB = 1024 * 1024;

/**
 * The durable queue (RedisTaskQueue on BullMQ) under load: a full queue refuses the next task call, and 1,000
 * queued runs drain through workers started afterwards, with the memory of every process and of the queue in
 * Redis back where it was.
 */
describe('durable task queue: backpressure and a drain of 1,000 runs', () => {
  let redis: RedisProcess;
  let reader: Redis;
  const processes: ServerProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const started = await startServerProcess('durable-app.ts', 256, { REDIS_URL: redis.url, MAX_TASKS_PER_CLIENT: '5000', ...env });
    processes.push(started);
    return started;
  };

  beforeAll(async () => {
    redis = await startRedis();
    reader = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  }, 30_000);
  afterAll(async () => {
    reader?.disconnect();
    await Promise.all(processes.map((p) => p.stop()));
    await redis?.stop();
  });

  /** Runs `count` calls, `width` at a time. */
  const inBatches = async <T>(count: number, width: number, call: (index: number) => Promise<T>): Promise<T[]> => {
    const results: T[] = [];
    for (let first = 0; first < count; first += width) {
      results.push(...(await Promise.all(Array.from({ length: Math.min(width, count - first) }, (_, i) => call(first + i)))));
    }
    return results;
  };
  /** Runs waiting and running in the queue's main lane, as BullMQ keeps them in Redis. */
  const inQueue = async (queue: string) => {
    const [waiting, active] = await Promise.all([reader.llen(`mcp-reflect:${queue}:wait`), reader.llen(`mcp-reflect:${queue}:active`)]);
    return waiting + active;
  };
  const steps = { name: 'steps', arguments: { count: 1, pauseMs: 0 } };

  it('refuses a task call once maxQueued runs wait, saying why and creating no task, and a worker started later runs the queued ones', async () => {
    // The client may hold 7 live tasks: 5 queued, and 2 more once they ran, only if the refused calls made none.
    const enqueuer = await start({ NO_WORKER: '1', MAX_QUEUED: '5', QUEUE_NAME: 'bounded', MAX_TASKS_PER_CLIENT: '7' });
    const send = modernClient(enqueuer.url, TASKS);
    const created = await inBatches(5, 1, () => send('tools/call', steps));
    for (const answer of created) expect(answer.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(await inQueue('bounded')).toBe(5);

    for (const refused of await inBatches(3, 1, () => send('tools/call', steps))) {
      expect(refused.error).toEqual({
        code: -32600,
        message: 'Cannot start another task: 5 tasks already wait in the queue, the most it may hold. Try again later.',
        data: { limit: 'maxQueued', max: 5 },
      });
    }
    expect(await inQueue('bounded')).toBe(5);

    await start({ WORKER_ONLY: '1', QUEUE_NAME: 'bounded' });
    for (const { result } of created) {
      const done = await waitFor(async () => ((await send('tasks/get', { taskId: result.taskId })).result?.status === 'completed' ? true : undefined), {
        what: `task ${result.taskId} to complete`,
        timeout: 20_000,
      });
      expect(done).toBe(true);
    }
    for (const more of await inBatches(2, 1, () => send('tools/call', steps))) expect(more.result).toMatchObject({ resultType: 'task' });
    expect((await send('tools/call', steps)).error).toMatchObject({ code: -32600, data: { limit: 'maxTasksPerClient', max: 7 } });
  }, 60_000);

  it('drains 1,000 queued runs through two workers: every task completes, and no process nor the queue keeps what the runs held', async () => {
    const enqueuer = await start({ NO_WORKER: '1', QUEUE_NAME: 'drain' });
    const workers = [await start({ WORKER_ONLY: '1', QUEUE_NAME: 'drain' }), await start({ WORKER_ONLY: '1', QUEUE_NAME: 'drain' })];
    const send = modernClient(enqueuer.url, TASKS);
    // Warm up every process (code loaded, pools filled), then take the baseline.
    for (const warm of await inBatches(20, 10, () => send('tools/call', steps))) expect(warm.result).toMatchObject({ resultType: 'task' });
    await waitFor(async () => ((await inQueue('drain')) === 0 ? true : undefined), { what: 'the warm-up runs to drain' });
    const before = await Promise.all([enqueuer, ...workers].map((p) => p.memory()));
    const keysBefore = (await reader.keys('mcp-reflect:drain:*')).length;

    const created = await inBatches(1_000, 25, () => send('tools/call', steps));
    const ids = created.map((answer) => {
      expect(answer.result).toMatchObject({ resultType: 'task' });
      return answer.result.taskId as string;
    });
    await waitFor(async () => ((await inQueue('drain')) === 0 ? true : undefined), { what: 'the queue to drain', timeout: 60_000, interval: 100 });

    const tasks = await inBatches(ids.length, 25, (i) => send('tasks/get', { taskId: ids[i] }));
    const done = tasks.filter((answer) => answer.result?.status === 'completed');
    expect(done).toHaveLength(1_000);
    // Both workers took runs.
    const pids = new Set(done.map((answer) => answer.result.result.content[0].text));
    expect([...pids].sort()).toEqual(workers.map((w) => `done on ${w.child.pid}`).sort());

    // The queue holds no job of theirs (BullMQ's own keys only), and no process kept a run's state.
    const keys = await reader.keys('mcp-reflect:drain:*');
    expect(keys.filter((key) => ids.some((id) => key.includes(id)))).toEqual([]);
    expect(keys.length).toBeLessThanOrEqual(keysBefore + 2);
    const after = await Promise.all([enqueuer, ...workers].map((p) => p.memory()));
    after.forEach((memory, i) => expect((memory.heap - before[i]!.heap) / MIB).toBeLessThan(8));
  }, 120_000);

  it('runs at most `concurrency` runs at once in a worker, and a tool of `toolConcurrency` at most its own limit, in a lane beside the rest', async () => {
    // Every instance names the same lanes (the same module does): the enqueuer puts `lane`'s runs in its lane.
    const enqueuer = await start({ NO_WORKER: '1', QUEUE_NAME: 'limits', TOOL_CONCURRENCY: '{"lane":1}' });
    const send = modernClient(enqueuer.url, TASKS);
    const created = [
      ...(await inBatches(6, 6, () => send('tools/call', { name: 'peak', arguments: { pauseMs: 300 } }))),
      ...(await inBatches(4, 4, () => send('tools/call', { name: 'lane', arguments: { pauseMs: 400 } }))),
    ];
    // One worker, started once everything waits: it takes what its limits let it.
    await start({ WORKER_ONLY: '1', QUEUE_NAME: 'limits', CONCURRENCY: '2', TOOL_CONCURRENCY: '{"lane":1}' });
    const seen = await Promise.all(
      created.map(async ({ result }) => {
        const done = await waitFor(
          async () => {
            const task = (await send('tasks/get', { taskId: result.taskId })).result;
            return task?.status === 'completed' ? task : undefined;
          },
          { what: `task ${result.taskId} to complete`, timeout: 30_000, interval: 100 },
        );
        return JSON.parse(done.result.content[0].text) as { tool: number; all: number };
      }),
    );
    const most = (from: typeof seen, key: 'tool' | 'all') => Math.max(...from.map((s) => s[key]));
    expect(most(seen.slice(0, 6), 'tool')).toBe(2);
    expect(most(seen.slice(6), 'tool')).toBe(1);
    // The lane runs beside the main lane's two.
    expect(most(seen, 'all')).toBe(3);
  }, 60_000);
});
