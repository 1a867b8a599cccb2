import { Client } from '@modelcontextprotocol/client';
import { InMemoryTaskStore, McpFactory, type McpApplication, type NewTask, type TaskChange, type TaskEvent, type TaskStatus, type TaskStore } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { deferred, fakeOnly, roundTrip, waitFor, within } from '../support/waiting';
import { probe, tasksModule } from './fixtures';
import { legacyRequest } from './legacy-client';

const SECRET = 'connect ECONNREFUSED 10.9.8.7:6379';

/** A user's own store (the public TaskStore interface) in front of the in-memory one: it can fail, and it counts reads. */
class FlakyStore implements TaskStore {
  readonly inner = new InMemoryTaskStore();
  failCreate = false;
  failGet = false;
  gets = 0;
  async create(task: NewTask) {
    if (this.failCreate) throw new Error(SECRET);
    return this.inner.create(task);
  }
  async get(owner: string, taskId: string) {
    this.gets++;
    if (this.failGet) throw new Error(SECRET);
    return this.inner.get(owner, taskId);
  }
  update(owner: string, taskId: string, change: TaskChange, from: readonly TaskStatus[]) {
    return this.inner.update(owner, taskId, change, from);
  }
  answer(owner: string, taskId: string, responses: Record<string, unknown>) {
    return this.inner.answer(owner, taskId, responses);
  }
  list(owner: string, cursor: string | undefined, limit: number) {
    return this.inner.list(owner, cursor, limit);
  }
  dropOwner(owner: string) {
    return this.inner.dropOwner(owner);
  }
  watch(listener: (event: TaskEvent) => void) {
    return this.inner.watch(listener);
  }
}

describe('tasks: a store that fails, expiry and abandoned waits', () => {
  let app: McpApplication;
  let store: FlakyStore;
  const clients: Client[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  const connect = async (capabilities: Record<string, unknown> = {}) => {
    const client = await createTestClient(app, { capabilities: capabilities as never });
    Object.assign(client, { close: () => Client.prototype.close.call(client) });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    store = new FlakyStore();
    app = await McpFactory.create(tasksModule({ store, defaultTtlMs: 600_000 }));
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await app.close();
  });
  beforeEach(() => {
    probe.reset();
    Object.assign(store, { failCreate: false, failGet: false, gets: 0 });
  });
  afterEach(async () => {
    probe.release.resolve('end');
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  it('masks a store failure in the task methods and in task creation: the client never sees the store’s message', async () => {
    const client = await connect();
    const { task } = await legacyRequest(client, 'tools/call', { name: 'toolFails', arguments: {}, task: {} });
    store.failGet = true;
    const get = legacyRequest(client, 'tasks/get', { taskId: task.taskId });
    await expect(get).rejects.toMatchObject({ code: -32603 });
    await expect(get).rejects.not.toThrow(/ECONNREFUSED|10\.9\.8\.7/);
    store.failGet = false;
    store.failCreate = true;
    const created = legacyRequest(client, 'tools/call', { name: 'toolFails', arguments: {}, task: {} });
    await expect(created).rejects.toMatchObject({ code: -32603 });
    await expect(created).rejects.not.toThrow(/ECONNREFUSED|10\.9\.8\.7/);
  });

  it('fails the task (masked) when the store cannot be read as its run starts, with no unhandled rejection', async () => {
    const client = await connect();
    store.failGet = true;
    const { task } = await legacyRequest(client, 'tools/call', { name: 'toolFails', arguments: {}, task: {} });
    store.failGet = false;
    const failed = await waitFor(async () => {
      const seen = await legacyRequest(client, 'tasks/get', { taskId: task.taskId });
      return seen.status === 'working' ? undefined : seen;
    }, { what: 'the task to end' });
    expect(failed).toMatchObject({ status: 'failed' });
    expect(await store.inner.get('anonymous', task.taskId)).toMatchObject({ error: { code: -32603, message: 'Internal error' } });
    await roundTrip(client);
    expect(unhandled).toEqual([]);
  });

  it('aborts the run once the task’s TTL has passed (no run outlives its task)', async () => {
    const client = await connect();
    await legacyRequest(client, 'tools/call', { name: 'wait', arguments: {}, task: { ttl: 50 } });
    await within(probe.started.promise, 'the method to run');
    const reason = await within(probe.aborted.promise, 'the run to be aborted at its TTL', 5_000);
    expect(String((reason as Error).message)).toMatch(/expired/);
  });

  it('lets a 2025 client take longer than a request timeout to answer a task’s question, and withdraws it when the task is cancelled', async () => {
    fakeOnly(['setTimeout', 'clearTimeout']);
    try {
      const client = await connect({ elicitation: {} });
      const asked = deferred<void>();
      const withdrawn = deferred<void>();
      client.setRequestHandler('elicitation/create', (_request, ctx) => {
        asked.resolve();
        ctx.mcpReq.signal.addEventListener('abort', () => withdrawn.resolve(), { once: true });
        return new Promise<never>(() => undefined); // the user never answers
      });
      const { task } = await legacyRequest(client, 'tools/call', { name: 'confirm', arguments: { what: 'c.txt' }, task: {} });
      await asked.promise;
      jest.advanceTimersByTime(5 * 60_000); // past the SDK's default request timeout (60 s), within the task's TTL
      await roundTrip(client);
      expect(await legacyRequest(client, 'tasks/get', { taskId: task.taskId })).toMatchObject({ status: 'input_required' });
      await legacyRequest(client, 'tasks/cancel', { taskId: task.taskId });
      await withdrawn.promise;
    } finally {
      jest.useRealTimers();
    }
  });

  it('drops the wait of a tasks/result the client cancelled (nothing of it runs when the task ends)', async () => {
    const client = await connect();
    const { task } = await legacyRequest(client, 'tools/call', { name: 'wait', arguments: {}, task: {} });
    await within(probe.started.promise, 'the method to run');
    const controller = new AbortController();
    const before = store.gets;
    const abandoned = client.request({ method: 'tasks/result', params: { taskId: task.taskId } } as never, ANY as never, { signal: controller.signal });
    abandoned.catch(() => undefined);
    await waitFor(() => store.gets >= before + 2, { what: 'tasks/result to wait' }); // find, then the wait's read
    controller.abort();
    await roundTrip(client); // the server has heard of the cancellation
    probe.release.resolve('done');
    store.gets = 0;
    await legacyRequest(client, 'tasks/result', { taskId: task.taskId });
    await roundTrip(client);
    expect(store.gets).toBe(2); // this request's own find and read: the cancelled wait read nothing
  });
});

const ANY = { '~standard': { version: 1, vendor: 'spec', validate: (value: unknown) => ({ value }) } };
