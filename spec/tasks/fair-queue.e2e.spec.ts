import { startRedis, type RedisProcess } from '../support/redis-server';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { waitFor } from '../support/waiting';
import type { Peer } from './legacy-wire';
import { modernClient, TASKS, type Answer } from './modern-wire';

const FROM_A: Peer = { localAddress: '127.0.0.2' };
const FROM_B: Peer = { localAddress: '127.0.0.3' };

/**
 * The durable queue (RedisTaskQueue) between clients: queued runs of different clients take turns, on every
 * worker, and `maxQueued` holds exactly however many instances admit calls at once.
 */
describe('durable task queue: fair between clients, exact under concurrency', () => {
  let redis: RedisProcess;
  const processes: ServerProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const started = await startServerProcess('durable-app.ts', 256, { REDIS_URL: redis.url, MAX_TASKS_PER_CLIENT: '5000', ...env });
    processes.push(started);
    return started;
  };
  const completed = (send: ReturnType<typeof modernClient>, taskId: string) =>
    waitFor(
      async () => {
        const task = (await send('tasks/get', { taskId })).result;
        return task?.status === 'completed' ? task : undefined;
      },
      { what: `task ${taskId} to complete`, timeout: 60_000, interval: 50 },
    );

  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await redis?.stop();
  });

  it("runs another client's one task after at most one of a client's 40 queued before it", async () => {
    const enqueuer = await start({ NO_WORKER: '1', QUEUE_NAME: 'fair' });
    const a = modernClient(enqueuer.url, TASKS, {}, FROM_A);
    const b = modernClient(enqueuer.url, TASKS, {}, FROM_B);
    const hog: Answer[] = [];
    for (let i = 0; i < 40; i++) hog.push(await a('tools/call', { name: 'ordered', arguments: { pauseMs: 20 } }));
    for (const answer of hog) expect(answer.result).toMatchObject({ resultType: 'task' });
    const mine = await b('tools/call', { name: 'ordered', arguments: { pauseMs: 0 } });
    expect(mine.result).toMatchObject({ resultType: 'task' });

    // One worker running one run at a time: the order of runs is the order of the queue.
    await start({ WORKER_ONLY: '1', QUEUE_NAME: 'fair', CONCURRENCY: '1' });
    const done = await completed(b, mine.result.taskId);
    // First in, first out, it ran 41st, after every run of the other client (35.8 s behind 100 of them).
    expect(Number(done.result.content[0].text)).toBeLessThanOrEqual(2);
    const places = await Promise.all(hog.map(async ({ result }) => Number((await completed(a, result.taskId)).result.content[0].text)));
    // The other client's runs kept their own order.
    expect(places).toEqual([...places].sort((x, y) => x - y));
  }, 120_000);

  it('accepts exactly maxQueued of 60 concurrent task calls made through two instances, and frees the places of the runs taken', async () => {
    const first = await start({ NO_WORKER: '1', QUEUE_NAME: 'exact', MAX_QUEUED: '20' });
    const second = await start({ NO_WORKER: '1', QUEUE_NAME: 'exact', MAX_QUEUED: '20' });
    const sends = [modernClient(first.url, TASKS, {}, FROM_A), modernClient(second.url, TASKS, {}, FROM_B)];
    const call = (i: number) => sends[i % 2]!('tools/call', { name: 'ordered', arguments: { pauseMs: 0 } });
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => call(i)));
    const accepted = answers.filter((answer) => answer.result?.resultType === 'task');
    const refused = answers.filter((answer) => answer.error);
    expect(accepted).toHaveLength(20);
    expect(refused).toHaveLength(40);
    for (const answer of refused) expect(answer.error).toMatchObject({ code: -32600, data: { limit: 'maxQueued', max: 20 } });

    // The refused calls held no place: once a worker took the queued runs, 20 more are accepted, and no more.
    await start({ WORKER_ONLY: '1', QUEUE_NAME: 'exact' });
    for (const [i, { result }] of accepted.entries()) await completed(sends[i % 2]!, result.taskId);
    const worker = processes.pop()!;
    await worker.stop();
    const again = await Promise.all(Array.from({ length: 30 }, (_, i) => call(i)));
    expect(again.filter((answer) => answer.result?.resultType === 'task')).toHaveLength(20);
  }, 120_000);
});
