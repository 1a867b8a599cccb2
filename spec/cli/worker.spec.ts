import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { waitFor } from '../support/waiting';

const root = path.resolve(__dirname, '..', '..');
const cli = (args: string[], env: NodeJS.ProcessEnv) =>
  spawn(process.execPath, ['-r', './spec/support/register.js', 'lib/cli/main.ts', ...args], { cwd: root, env: { ...process.env, NODE_OPTIONS: '', ...env } });

/** `mcp-reflect worker <entry>`: a process that serves nothing and runs the tasks of the durable queue. */
describe('mcp-reflect worker', () => {
  let redis: RedisProcess;
  let worker: ChildProcess | undefined;
  let output = '';
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    if (worker?.exitCode === null) worker.kill('SIGKILL');
    await redis?.stop();
  });

  it('runs the tasks another instance enqueued, and stops on Ctrl-C', async () => {
    worker = cli(['worker', 'spec/fixtures/durable-module.ts'], { REDIS_URL: redis.url, DURABLE_WORKER: '1' });
    worker.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    await waitFor(() => output.includes('takes tasks from its queue') || undefined, { what: 'the worker to start', timeout: 30_000 });

    // This process only enqueues (tasks.worker false): the worker process runs the task.
    process.env.REDIS_URL = redis.url;
    process.env.DURABLE_WORKER = '0';
    // Loaded now, with the environment above (the fixture reads it as it loads).
    const { ReportsModule, closeRedis } = require('../fixtures/durable-module') as { ReportsModule: Function; closeRedis: () => Promise<void> };
    const { createTestClient, taskCalls } = require('mcp-reflect/testing') as typeof import('mcp-reflect/testing');
    const client = await createTestClient(ReportsModule, { capabilities: { tasks: {} } as never });
    try {
      const tasks = taskCalls(client);
      const outcome = await tasks.call({ name: 'report', arguments: { year: 2026 } });
      if (!('task' in outcome)) throw new Error(`no task: ${JSON.stringify(outcome)}`);
      const result = await tasks.result(outcome.task.taskId, { timeout: 20_000 });
      expect((result.content as { text: string }[])[0]!.text).toBe(`report 2026 by ${worker.pid}`);
    } finally {
      await client.close();
      await closeRedis();
    }
    const exited = new Promise<number | null>((resolve) => worker!.once('exit', (code) => resolve(code)));
    worker.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 60_000);

  it('whose bootstrap fails, exits at once with the error, leaving no Redis connection', async () => {
    const started = Date.now();
    const run = cli(['worker', 'spec/fixtures/failed-bootstrap/worker-module.ts'], { REDIS_URL: redis.url });
    let stderr = '';
    run.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => run.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toContain('the database is unreachable');
    expect(stderr).not.toContain('takes tasks from its queue');
    expect(Date.now() - started).toBeLessThan(15_000);
    // Neither the queue's connections (its worker's lanes) nor the store's are left on the server.
    const Redis = (require('ioredis') as typeof import('ioredis')).Redis;
    const checker = new Redis(redis.url, { connectionName: 'checker' });
    try {
      const clients = ((await checker.call('CLIENT', 'LIST')) as string).split('\n').filter((line) => line.trim() && !/ name=checker /.test(line));
      expect(clients).toEqual([]);
    } finally {
      await checker.quit();
    }
  }, 30_000);

  it('refuses a module without a durable queue, naming the fix', async () => {
    const run = cli(['worker', 'spec/fixtures/cli-app.ts'], {});
    let stderr = '';
    run.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => run.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toContain('Cannot run CliAppModule as a worker: it names no durable queue.');
    expect(stderr).toContain('RedisTaskQueue');
  }, 30_000);
});
