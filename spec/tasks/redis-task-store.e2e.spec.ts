import Redis from 'ioredis';
import { McpFactory, RedisTaskStore, type McpApplication } from 'mcp-reflect';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { waitFor, within } from '../support/waiting';
import { probe, tasksModule } from './fixtures';
import { modernClient, pollTask } from './modern-wire';

interface Instance {
  readonly app: McpApplication;
  readonly store: RedisTaskStore;
  readonly redis: Redis;
  readonly send: ReturnType<typeof modernClient>;
}

describe('RedisTaskStore: two instances sharing one Redis', () => {
  let redis: RedisProcess;
  let a: Instance;
  let b: Instance;

  const start = async (): Promise<Instance> => {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const store = new RedisTaskStore(client, { prefix: 'tasks-spec:', maxTasksPerClient: 3 });
    const app = await McpFactory.create(tasksModule({ store, pollIntervalMs: 100 }));
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    // Both instances receive each other's events before a spec relies on them.
    await store.ready();
    return { app, store, redis: client, send: modernClient(await app.getUrl()) };
  };

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([start(), start()]);
  }, 30_000);
  afterAll(async () => {
    probe.release.resolve('end');
    for (const instance of [a, b]) {
      if (!instance) continue;
      await instance.app.close();
      await instance.store.close();
      instance.redis.disconnect();
    }
    await redis?.stop();
  });
  beforeEach(() => probe.reset());

  it('creates a task on one instance and serves it, running and then completed, from the other', async () => {
    const { result: created } = await a.send('tools/call', { name: 'wait', arguments: {} });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 100 });
    await within(probe.started.promise, 'the method to run on the first instance');
    // A progress message reaches the store after the call's notification (it is written in the background): polled.
    const midway = await pollTask(b.send, created.taskId, (task) => task.statusMessage !== undefined);
    expect(midway).toMatchObject({ status: 'working', statusMessage: 'half way' });
    probe.release.resolve('shared');
    const done = await pollTask(b.send, created.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'released: shared' }]);
  });

  it('cancels on the other instance: the run’s signal aborts where it runs', async () => {
    const { result: created } = await a.send('tools/call', { name: 'wait', arguments: {} });
    await within(probe.started.promise, 'the method to run');
    expect((await b.send('tasks/cancel', { taskId: created.taskId })).result).toMatchObject({ resultType: 'complete' });
    await within(probe.aborted.promise, 'the first instance to abort the run');
    expect((await a.send('tasks/get', { taskId: created.taskId })).result).toMatchObject({ status: 'cancelled' });
  });

  it('resumes a task on the instance that runs it when the answer arrives at the other', async () => {
    const { result: created } = await a.send('tools/call', { name: 'confirm', arguments: { what: 'b.txt' } });
    const parked = await pollTask(b.send, created.taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(parked.inputRequests);
    await b.send('tasks/update', { taskId: created.taskId, inputResponses: { [key]: { action: 'accept', content: { confirm: true } } } });
    const done = await pollTask(b.send, created.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'deleted b.txt' }]);
    expect(probe.runs).toBe(2);
  });

  it('bounds a client’s tasks across instances, keeps each task with its TTL, and answers an unknown one -32602', async () => {
    // The three tasks above hold the three places of the client (127.0.0.1, anonymous), whichever instance created
    // them; the cancelled one gives its place to the next task, and then the client is full.
    expect((await a.send('tools/call', { name: 'toolFails', arguments: {} })).result).toMatchObject({ resultType: 'task' });
    expect((await b.send('tools/call', { name: 'toolFails', arguments: {} })).error).toMatchObject({
      code: -32600,
      data: { limit: 'maxTasksPerClient', max: 3 },
    });
    const keys = (await a.redis.call('KEYS', 'tasks-spec:task:*')) as string[];
    expect(keys).toHaveLength(3);
    for (const key of keys) {
      const ttl = Number(await a.redis.call('PTTL', key));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(3_600_000);
    }
    expect((await b.send('tasks/get', { taskId: 'missing' })).error).toMatchObject({ code: -32602 });
  });
});

describe('RedisTaskStore: bounds per client, and the tasks of an owner dropped (the store alone, a real Redis)', () => {
  let redis: RedisProcess;
  const clients: Redis[] = [];
  const stores: RedisTaskStore[] = [];
  const open = (prefix: string, options: ConstructorParameters<typeof RedisTaskStore>[1] = {}) => {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    clients.push(client);
    const store = new RedisTaskStore(client, { prefix, ...options });
    stores.push(store);
    return { store, client };
  };
  const task = (taskId: string, owner: string, client: string) => ({ taskId, owner, client, tool: 'job', ttlMs: 60_000, pollIntervalMs: 100 });

  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    for (const client of clients) client.disconnect();
    await redis?.stop();
  });

  it('counts the tasks of every owner of one client against one bound; another client still has room', async () => {
    const { store } = open('per-client:', { maxTasksPerClient: 2 });
    await store.create(task('s1-a', 'session:1', 'peer:10.0.0.1'));
    await store.create(task('s2-a', 'session:2', 'peer:10.0.0.1'));
    await expect(store.create(task('s3-a', 'session:3', 'peer:10.0.0.1'))).rejects.toMatchObject({ rpcCode: -32600, data: { limit: 'maxTasksPerClient', max: 2 } });
    await store.create(task('s4-a', 'session:4', 'peer:10.0.0.2'));
    expect(await store.get('session:3', 's3-a')).toBeUndefined();
  });

  it('drops every task of an owner: gone, their places free, the others kept, each published as cancelled to every instance', async () => {
    const { store, client } = open('drop-owner:', { maxTasksPerClient: 3 });
    const { store: other } = open('drop-owner:');
    await other.ready();
    const heard: string[] = [];
    other.watch((event) => event.kind === 'cancelled' && heard.push(event.taskId));
    await store.create(task('one', 'session:1', 'peer:10.0.0.1'));
    await store.create(task('two', 'session:1', 'peer:10.0.0.1'));
    await store.create(task('kept', 'session:2', 'peer:10.0.0.1'));
    expect(await store.dropOwner('session:1')).toBe(2);
    expect(await store.get('session:1', 'one')).toBeUndefined();
    expect((await store.list('session:1', undefined, 10)).tasks).toEqual([]);
    expect(await store.get('session:2', 'kept')).toMatchObject({ status: 'working' });
    expect(((await client.call('KEYS', 'drop-owner:task:*')) as string[]).sort()).toEqual(['drop-owner:task:kept']);
    await store.create(task('three', 'session:3', 'peer:10.0.0.1'));
    await store.create(task('four', 'session:3', 'peer:10.0.0.1'));
    await waitFor(() => heard.length === 2 || undefined, { what: 'the other instance to hear both' });
    expect(heard.sort()).toEqual(['one', 'two']);
    expect(await store.dropOwner('session:none')).toBe(0);
  });

  it('gives a cancelled task’s place to a new task where a bound is reached, the one nearest its expiry first', async () => {
    const { store, client } = open('cancelled:', { maxTasksPerClient: 3, maxTasks: 4 });
    const at = (taskId: string, owner: string, ttlMs: number) => ({ ...task(taskId, owner, owner), ttlMs });
    await store.create(at('done', 'alice', 60_000));
    await store.update('alice', 'done', { status: 'completed', result: { content: [] } }, ['working']);
    await store.create(at('later', 'alice', 120_000));
    await store.create(at('sooner', 'alice', 90_000));
    await expect(store.create(at('refused', 'alice', 60_000))).rejects.toMatchObject({ data: { limit: 'maxTasksPerClient' } });
    for (const id of ['later', 'sooner']) await store.update('alice', id, { status: 'cancelled' }, ['working']);
    await store.create(at('a4', 'alice', 60_000));
    expect(await store.get('alice', 'sooner')).toBeUndefined();
    expect(await store.get('alice', 'later')).toMatchObject({ status: 'cancelled' });
    expect(await store.get('alice', 'done')).toMatchObject({ status: 'completed' });
    await store.create(at('a5', 'alice', 60_000));
    expect(await store.get('alice', 'later')).toBeUndefined();
    await expect(store.create(at('a6', 'alice', 60_000))).rejects.toMatchObject({ data: { limit: 'maxTasksPerClient' } });
    await store.create(at('b1', 'bob', 60_000));
    await expect(store.create(at('c1', 'carol', 60_000))).rejects.toMatchObject({ data: { limit: 'maxTasks' } });
    await store.update('bob', 'b1', { status: 'cancelled' }, ['working']);
    await store.create(at('c1', 'carol', 60_000));
    expect(await store.get('bob', 'b1')).toBeUndefined();
    // Nothing of the dropped tasks is left in Redis.
    expect(((await client.call('KEYS', 'cancelled:task:*')) as string[]).sort()).toEqual(['a4', 'a5', 'c1', 'done'].map((id) => `cancelled:task:${id}`));
    expect(Number(await client.call('ZCARD', 'cancelled:cancelled'))).toBe(0);
  });
});

describe('RedisTaskStore: a Redis that cannot be reached', () => {
  it('does not end the process when its subscriber cannot subscribe (no unhandled rejection); ready() says why', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const redis = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
    redis.on('error', () => undefined);
    let subscriber: Redis | undefined;
    const duplicate = redis.duplicate.bind(redis);
    redis.duplicate = (...args) => {
      subscriber = duplicate(...args);
      subscriber.on('error', () => undefined);
      return subscriber;
    };
    try {
      const store = new RedisTaskStore(redis);
      store.watch(() => undefined);
      await waitFor(() => subscriber?.status === 'end', { what: 'the subscriber to give up' });
      // Rejections are reported once the microtasks of a turn have run: two turns of the event loop.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      await expect(store.ready()).rejects.toThrow();
      await store.close();
    } finally {
      process.off('unhandledRejection', onUnhandled);
      redis.disconnect();
    }
  });
});
