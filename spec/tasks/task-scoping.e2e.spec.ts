import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTaskStore, McpFactory, type McpApplication } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { within } from '../support/waiting';
import { probe, tasksModule } from './fixtures';
import { legacyRequest } from './legacy-client';

describe('tasks: owners, bounds and TTL', () => {
  let now = 5_000_000;
  let app: McpApplication;
  const clients: TestClient[] = [];
  const as = async (subject: string, clientId = 'spec') => {
    const client = await createTestClient(app, { auth: { subject, clientId } });
    Object.assign(client, { close: () => Object.getPrototypeOf(client).close.call(client) });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    const store = new InMemoryTaskStore({ now: () => now, maxTasksPerClient: 2 });
    app = await McpFactory.create(tasksModule({ store, defaultTtlMs: 1_000 }));
  });
  afterEach(async () => {
    probe.release.resolve('end');
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => app.close());
  beforeEach(() => probe.reset());

  it('shows a task only to the identity that created it: another caller gets -32602 and an empty list', async () => {
    const alice = await as('alice');
    const bob = await as('bob');
    const { task } = await legacyRequest(alice, 'tools/call', { name: 'wait', arguments: {}, task: {} });
    await within(probe.started.promise, 'the method to run');
    // One turn of the event loop's timers: the store's clock is far from Date.now(), and no timer may read it as expired.
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result']) {
      await expect(legacyRequest(bob, method, { taskId: task.taskId })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown task') });
    }
    expect(await legacyRequest(bob, 'tasks/list')).toEqual({ tasks: [] });
    expect((await legacyRequest(alice, 'tasks/list')).tasks.map((t: { taskId: string }) => t.taskId)).toEqual([task.taskId]);
    expect(await legacyRequest(alice, 'tasks/cancel', { taskId: task.taskId })).toMatchObject({ status: 'cancelled' });
    // The run is reached although the store keeps its own clock.
    await within(probe.aborted.promise, 'the run to be aborted');
  });

  it('keeps identities apart whatever characters their client id and subject hold', async () => {
    const one = await as('c', 'a:b');
    const other = await as('b:c', 'a');
    const { task } = await legacyRequest(one, 'tools/call', { name: 'toolFails', arguments: {}, task: {} });
    await expect(legacyRequest(other, 'tasks/get', { taskId: task.taskId })).rejects.toMatchObject({ code: -32602 });
    expect(await legacyRequest(other, 'tasks/list')).toEqual({ tasks: [] });
  });

  it('refuses a task beyond the caller’s bound with a JSON-RPC error that says what to do, while others still start theirs', async () => {
    const carol = await as('carol');
    const dave = await as('dave');
    for (let i = 0; i < 2; i++) await legacyRequest(carol, 'tools/call', { name: 'toolFails', arguments: {}, task: {} });
    await expect(legacyRequest(carol, 'tools/call', { name: 'toolFails', arguments: {}, task: {} })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('already holds 2 live tasks'),
    });
    expect((await legacyRequest(dave, 'tools/call', { name: 'toolFails', arguments: {}, task: {} })).task.status).toBe('working');
  });

  it('forgets a task once its TTL has passed (the store’s clock), answering -32602 from then on', async () => {
    const erin = await as('erin');
    const { task } = await legacyRequest(erin, 'tools/call', { name: 'toolFails', arguments: {}, task: {} });
    expect(task.ttl).toBe(1_000);
    now += 999;
    expect(await legacyRequest(erin, 'tasks/get', { taskId: task.taskId })).toMatchObject({ taskId: task.taskId });
    now += 1;
    await expect(legacyRequest(erin, 'tasks/get', { taskId: task.taskId })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('tasks over stateless HTTP without an identity', () => {
  it('serves a task to whoever holds its id, and lists the anonymous pool to nobody (2025-11-25 tasks/list)', async () => {
    const app = await McpFactory.create(tasksModule());
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, stateless: true });
    const url = new URL(await app.getUrl());
    const connect = async () => {
      const client = new Client({ name: 'anonymous', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'legacy' } });
      await client.connect(new StreamableHTTPClientTransport(url));
      return client;
    };
    const [one, two] = [await connect(), await connect()];
    const { task } = await legacyRequest(one, 'tools/call', { name: 'toolFails', arguments: {}, task: {} });
    expect(await legacyRequest(two, 'tasks/get', { taskId: task.taskId })).toMatchObject({ taskId: task.taskId });
    expect(await legacyRequest(one, 'tasks/list')).toEqual({ tasks: [] });
    await Promise.all([one.close(), two.close()]);
    await app.close();
  });
});
