import Redis from 'ioredis';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { startProxy, type RoundRobinProxy } from '../support/round-robin-proxy';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { waitFor } from '../support/waiting';
import { modernClient, TASKS } from './modern-wire';

/**
 * Tasks on a BullMQ queue (RedisTaskQueue) with a RedisTaskStore: three server processes and one standalone worker
 * behind a round-robin proxy. A process killed (SIGKILL) mid-run: another worker runs the task again.
 */
describe('durable task queue: three instances and a worker on Redis', () => {
  let redis: RedisProcess;
  let processes: ServerProcess[] = [];
  let proxy: RoundRobinProxy;
  let send: ReturnType<typeof modernClient>;

  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_URL: redis.url };
    processes = await Promise.all([
      startServerProcess('durable-app.ts', 256, env),
      startServerProcess('durable-app.ts', 256, env),
      startServerProcess('durable-app.ts', 256, env),
      startServerProcess('durable-app.ts', 256, { ...env, WORKER_ONLY: '1' }),
    ]);
    proxy = await startProxy(processes.slice(0, 3).map((p) => new URL(p.url)));
    const raw = modernClient(proxy.url, TASKS);
    // A killed instance stays behind the proxy: its turn of the round-robin fails, and the next instance answers.
    send = async (...args) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await raw(...args);
        } catch (error) {
          if (attempt === processes.length) throw error;
        }
      }
    };
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await Promise.all(processes.map((p) => p.stop()));
    await redis?.stop();
  });

  const pidOf = (message: string | undefined) => Number(/on (\d+)$/.exec(message ?? '')?.[1]);
  const poll = (taskId: string, done: (task: any) => boolean, what: string) =>
    waitFor(
      async () => {
        const task = (await send('tasks/get', { taskId })).result;
        return task && done(task) ? task : undefined;
      },
      { what, timeout: 20_000 },
    );
  const kill = (pid: number) => {
    const victim = processes.find((p) => p.child.pid === pid);
    expect(victim).toBeDefined();
    victim!.child.kill('SIGKILL');
  };

  it('runs a task on a worker and serves its progress and result from every instance', async () => {
    const { result: created } = await send('tools/call', { name: 'steps', arguments: { count: 3, pauseMs: 20 } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await poll(created.taskId, (task) => task.status === 'completed', 'the task to complete');
    expect(done.result.content[0].text).toMatch(/^done on \d+$/);
  });

  it('runs again on another worker a task whose process was killed mid-run, with its progress after the takeover', async () => {
    const { result: created } = await send('tools/call', { name: 'steps', arguments: { count: 12, pauseMs: 150 } });
    const running = await poll(created.taskId, (task) => /^step 2 on/.test(task.statusMessage ?? ''), 'the run to reach step 2');
    const first = pidOf(running.statusMessage);
    kill(first);
    const resumed = await poll(created.taskId, (task) => pidOf(task.statusMessage) !== first && task.status === 'working', 'another worker to take the run');
    expect(resumed.statusMessage).toMatch(/^step \d+ on \d+$/);
    const done = await poll(created.taskId, (task) => task.status === 'completed', 'the task to complete on the other worker');
    expect(pidOf(done.result.content[0].text)).not.toBe(first);
  }, 40_000);

  it('fails a task of a tool with retry: false whose process was killed, saying why, instead of running it again', async () => {
    const { result: created } = await send('tools/call', { name: 'once', arguments: { pauseMs: 4_000 } });
    const running = await poll(created.taskId, (task) => /^started on/.test(task.statusMessage ?? ''), 'the run to start');
    kill(pidOf(running.statusMessage));
    const failed = await poll(created.taskId, (task) => task.status === 'failed', 'the task to fail');
    expect(failed.error).toEqual({
      code: -32603,
      message: "The task's run was cut short (the process running it stopped), and tool 'once' is not run again (@Tool({ task: { retry: false } })). Start a new task if it is safe to.",
    });
  }, 40_000);

  it('cancels a run from any instance: the signal of the worker running it aborts, and the task stays cancelled', async () => {
    const mark = `aborted:${Date.now()}`;
    const { result: created } = await send('tools/call', { name: 'steps', arguments: { count: 50, pauseMs: 100, abortMark: mark } });
    const running = await poll(created.taskId, (task) => /^step 2 on/.test(task.statusMessage ?? ''), 'the run to start');
    // The next request goes to another instance than the one that answered the last poll (round-robin).
    expect((await send('tasks/cancel', { taskId: created.taskId })).result).toMatchObject({ resultType: 'complete' });
    const reader = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      const abortedOn = await waitFor(() => reader.get(mark).then((pid) => pid ?? undefined), { what: "the run's signal to abort on its worker", timeout: 10_000 });
      expect(Number(abortedOn)).toBe(pidOf(running.statusMessage));
    } finally {
      reader.disconnect();
    }
    const cancelled = (await send('tasks/get', { taskId: created.taskId })).result;
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    // The aborted run reports nothing more: the task is not moved on by it.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await send('tasks/get', { taskId: created.taskId })).result).toEqual(cancelled);
  }, 30_000);
});
