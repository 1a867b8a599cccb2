import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { Arrivals, deferred, within } from '../support/waiting';
import { probe, tasksModule } from './fixtures';
import { legacyRequest } from './legacy-client';

type Connect = (capabilities?: Record<string, unknown>) => Promise<Client>;

describe.each(['in memory', 'over stateful HTTP'] as const)('tasks on 2025-11-25 through the SDK client (%s)', (transport) => {
  let app: McpApplication;
  const clients: Client[] = [];
  let connect: Connect;

  beforeAll(async () => {
    app = await McpFactory.create(tasksModule({ pollIntervalMs: 200, defaultTtlMs: 60_000, maxTtlMs: 120_000 }));
    if (transport === 'over stateful HTTP') {
      await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      const url = new URL(await app.getUrl());
      connect = async (capabilities = {}) => {
        const client = new Client({ name: 'tasks-2025', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: 'legacy' } });
        await client.connect(new StreamableHTTPClientTransport(url));
        clients.push(client);
        return client;
      };
    } else {
      connect = async (capabilities = {}) => {
        const client = await createTestClient(app, { capabilities: capabilities as never });
        Object.assign(client, { close: () => Client.prototype.close.call(client) }); // the app outlives each client
        clients.push(client);
        return client;
      };
    }
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => app.close());
  beforeEach(() => probe.reset());

  it('declares capabilities.tasks and each task tool’s execution.taskSupport', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, (t as { execution?: unknown }).execution]));
    expect(tools).toMatchObject({ plain: undefined, wait: { taskSupport: 'optional' }, must: { taskSupport: 'required' } });
  });

  it('runs a task-augmented call as a task: CreateTaskResult, tasks/get, tasks/result (waiting for the end), tasks/list', async () => {
    const client = await connect();
    const created = await legacyRequest(client, 'tools/call', { name: 'wait', arguments: {}, task: { ttl: 90_000 } });
    expect(created.task).toMatchObject({ status: 'working', ttl: 90_000, pollInterval: 200 });
    const { taskId } = created.task;
    await within(probe.started.promise, 'the method to run');
    expect(await legacyRequest(client, 'tasks/get', { taskId })).toMatchObject({ taskId, status: 'working', statusMessage: 'half way' });
    const result = legacyRequest(client, 'tasks/result', { taskId });
    probe.release.resolve('done');
    expect(await result).toEqual({
      content: [{ type: 'text', text: 'released: done' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    const listed = await legacyRequest(client, 'tasks/list');
    expect(listed.tasks).toEqual([expect.objectContaining({ taskId, status: 'completed' })]);
  });

  it('caps the TTL a client asks for at maxTtlMs, and refuses a required task tool called without a task (-32601)', async () => {
    const client = await connect();
    const created = await legacyRequest(client, 'tools/call', { name: 'toolFails', arguments: {}, task: { ttl: 10_000_000 } });
    expect(created.task.ttl).toBe(120_000);
    await expect(client.callTool({ name: 'must', arguments: {} })).rejects.toMatchObject({ code: -32601 });
    const required = await legacyRequest(client, 'tools/call', { name: 'must', arguments: {}, task: {} });
    expect(await legacyRequest(client, 'tasks/result', { taskId: required.task.taskId })).toMatchObject({
      content: [{ type: 'text', text: 'must on 2025-11-25' }],
    });
    // Without a task, an optional task tool is an ordinary call.
    expect((await client.callTool({ name: 'toolFails', arguments: {} })).isError).toBe(true);
  });

  it('cancels: the signal aborts, tasks/cancel answers the cancelled task, a terminal task cannot be cancelled (-32602)', async () => {
    const client = await connect();
    const { task } = await legacyRequest(client, 'tools/call', { name: 'wait', arguments: {}, task: {} });
    await within(probe.started.promise, 'the method to run');
    expect(await legacyRequest(client, 'tasks/cancel', { taskId: task.taskId })).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    await within(probe.aborted.promise, 'the signal to abort');
    await expect(legacyRequest(client, 'tasks/cancel', { taskId: task.taskId })).rejects.toMatchObject({ code: -32602 });
    await expect(legacyRequest(client, 'tasks/result', { taskId: task.taskId })).rejects.toThrow(/was cancelled/);
  });

  it('sends a task’s progress to the token of its call, with the task in _meta["io.modelcontextprotocol/related-task"]', async () => {
    const client = await connect();
    const progress = new Arrivals<Record<string, any>>();
    client.setNotificationHandler('notifications/progress', (notification) => progress.push(notification.params as Record<string, any>));
    const { task } = await legacyRequest(client, 'tools/call', { name: 'wait', arguments: {}, task: {}, _meta: { progressToken: 'p-1' } });
    const [first] = await progress.until(1);
    expect(first).toMatchObject({ progressToken: 'p-1', progress: 1, total: 2, message: 'half way' });
    expect(first._meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId: task.taskId } });
    probe.release.resolve('done');
  });

  it('tells the session of each change of status (notifications/tasks/status)', async () => {
    const client = await connect({ elicitation: {} });
    const statuses = new Arrivals<string>();
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method === 'notifications/tasks/status') statuses.push((notification.params as { status: string }).status);
    };
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    const { task } = await legacyRequest(client, 'tools/call', { name: 'confirm', arguments: { what: 'n.txt' }, task: {} });
    expect(await statuses.until(2)).toEqual(['input_required', 'completed']);
    expect(await legacyRequest(client, 'tasks/get', { taskId: task.taskId })).toMatchObject({ status: 'completed' });
  });

  it('answers a failed task’s tasks/result with its JSON-RPC error', async () => {
    const client = await connect();
    const { task } = await legacyRequest(client, 'tools/call', { name: 'protocolFails', arguments: {}, task: {} });
    await expect(legacyRequest(client, 'tasks/result', { taskId: task.taskId })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('deep failure') });
    expect(await legacyRequest(client, 'tasks/get', { taskId: task.taskId })).toMatchObject({ status: 'failed' });
  });

  it('asks the client directly when a task needs input (input_required meanwhile), then completes', async () => {
    const client = await connect({ elicitation: {} });
    const asked = deferred<Record<string, any>>();
    const answer = deferred<void>();
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.resolve(request.params as Record<string, any>);
      await answer.promise;
      return { action: 'accept', content: { confirm: true } };
    });
    const { task } = await legacyRequest(client, 'tools/call', { name: 'confirm', arguments: { what: 'a.txt' }, task: {} });
    const params = await within(asked.promise, 'the elicitation');
    expect(params).toMatchObject({ message: 'Delete a.txt?', _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } } });
    expect(await legacyRequest(client, 'tasks/get', { taskId: task.taskId })).toMatchObject({ status: 'input_required' });
    answer.resolve();
    expect(await legacyRequest(client, 'tasks/result', { taskId: task.taskId })).toMatchObject({ content: [{ type: 'text', text: 'deleted a.txt' }] });
    expect(probe.runs).toBe(2); // asked, then re-entered with the answer
  });

  it('answers unknown tasks with -32602', async () => {
    const client = await connect();
    await expect(legacyRequest(client, 'tasks/get', { taskId: 'nope' })).rejects.toMatchObject({ code: -32602 });
    await expect(legacyRequest(client, 'tasks/get', {})).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses a tasks/list cursor it did not give (-32602)', async () => {
    const client = await connect();
    await expect(legacyRequest(client, 'tasks/list', { cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('cursor') });
  });

  it('clips an invalid tasks/list cursor in its refusal, as the catalogues do (a client may send any length)', async () => {
    const client = await connect();
    const cursor = 'x'.repeat(3_000);
    const refusal = await legacyRequest(client, 'tasks/list', { cursor }).catch((error: { code: number; message: string }) => error);
    expect(refusal).toMatchObject({ code: -32602 });
    expect(refusal.message).toBe(
      `Invalid cursor '${'x'.repeat(64)}': pass back a nextCursor this server returned, or omit the cursor to start from the first page.`,
    );
  });

  it('clips a task id it does not know in its refusal, on every task method', async () => {
    const client = await connect();
    const taskId = 'y'.repeat(3_000);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      await expect(legacyRequest(client, method, { taskId })).rejects.toMatchObject({ code: -32602, message: `Unknown task: ${'y'.repeat(64)}` });
    }
  });

  it('answers tasks/update, a method of 2026-07-28 only, -32601', async () => {
    const client = await connect();
    const { task } = await legacyRequest(client, 'tools/call', { name: 'toolFails', arguments: {}, task: {} });
    await expect(legacyRequest(client, 'tasks/update', { taskId: task.taskId, inputResponses: {} })).rejects.toMatchObject({ code: -32601 });
  });
});

describe('closing the application', () => {
  it('aborts the task runs of this process (their Context signal fires) before the shutdown hooks', async () => {
    probe.reset();
    const app = await McpFactory.create(tasksModule({ pollIntervalMs: 200, defaultTtlMs: 60_000, maxTtlMs: 120_000 }));
    const client = await createTestClient(app);
    const created = await legacyRequest(client, 'tools/call', { name: 'wait', arguments: {}, task: { ttl: 60_000 } });
    expect(created.task).toMatchObject({ status: 'working' });
    await within(probe.started.promise, 'the method to run');
    await app.close();
    await within(probe.aborted.promise, 'the run to be aborted');
  });
});
