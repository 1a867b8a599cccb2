import { McpFactory, type McpApplication } from 'mcp-reflect';
import { within } from '../support/waiting';
import { probe, tasksModule } from './fixtures';
import { modernClient, pollTask, TASKS } from './modern-wire';

describe('tasks on 2026-07-28 (extension io.modelcontextprotocol/tasks, over HTTP)', () => {
  let app: McpApplication;
  let url: string;
  let send: ReturnType<typeof modernClient>;

  beforeAll(async () => {
    app = await McpFactory.create(tasksModule({ pollIntervalMs: 500, defaultTtlMs: 60_000 }));
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    url = await app.getUrl();
    send = modernClient(url);
  });
  afterAll(() => app.close());
  beforeEach(() => probe.reset());

  it('advertises the extension in server/discover, with no 2025 tasks slot and no per-tool execution field', async () => {
    const { result } = await send('server/discover');
    expect(result.capabilities.extensions['io.modelcontextprotocol/tasks']).toEqual({});
    expect(result.capabilities.tasks).toBeUndefined();
    // The revision has no per-tool task vocabulary (the server decides per call): `execution` is 2025-11-25 only.
    const { result: list } = await send('tools/list');
    expect(list.tools.filter((t: any) => 'execution' in t)).toEqual([]);
  });

  it('answers a task call at once with a flat CreateTaskResult, runs the method with its Context, and inlines the result', async () => {
    const { result: created } = await send('tools/call', { name: 'wait', arguments: {} });
    expect(Object.keys(created).sort()).toEqual(['_meta', 'createdAt', 'lastUpdatedAt', 'pollIntervalMs', 'resultType', 'status', 'taskId', 'ttlMs'].sort());
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, pollIntervalMs: 500 });
    await within(probe.started.promise, 'the method to run');
    const working = await pollTask(send, created.taskId, (task) => task.statusMessage === 'half way');
    expect(working).toMatchObject({ resultType: 'complete', taskId: created.taskId, status: 'working' });
    expect(working.result).toBeUndefined();
    probe.release.resolve('go');
    const done = await pollTask(send, created.taskId, (task) => task.status === 'completed');
    expect(done.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'released: go' }] });
    expect(done.statusMessage).toBeUndefined();
  });

  it('reports a tool error as completed with isError, and a protocol error as failed with the error inlined', async () => {
    const { result: a } = await send('tools/call', { name: 'toolFails', arguments: {} });
    const toolError = await pollTask(send, a.taskId, (task) => task.status !== 'working');
    expect(toolError).toMatchObject({ status: 'completed', result: { isError: true, content: [{ type: 'text', text: 'it broke' }] } });
    const { result: b } = await send('tools/call', { name: 'protocolFails', arguments: {} });
    const failed = await pollTask(send, b.taskId, (task) => task.status !== 'working');
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'deep failure', data: { where: 'here' } } });
    expect(failed.result).toBeUndefined();
  });

  it('cancels through tasks/cancel: the method’s signal aborts, the task ends cancelled, and a second cancel is the same ack', async () => {
    const { result: created } = await send('tools/call', { name: 'wait', arguments: {} });
    await within(probe.started.promise, 'the method to run');
    expect((await send('tasks/cancel', { taskId: created.taskId })).result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    await within(probe.aborted.promise, 'the signal to abort');
    const task = (await send('tasks/get', { taskId: created.taskId })).result;
    expect(task).toMatchObject({ status: 'cancelled' });
    expect(task.result).toBeUndefined();
    expect((await send('tasks/cancel', { taskId: created.taskId })).result).toMatchObject({ resultType: 'complete' });
  });

  it('refuses the task methods to a client that did not declare the extension (-32021), and unknown tasks (-32602)', async () => {
    const plainClient = modernClient(url, {});
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const { error, status } = await plainClient(method, { taskId: 'x', inputResponses: {} });
      expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
      expect(status).toBe(400);
    }
    expect((await send('tasks/get', { taskId: 'no-such-task' })).error).toMatchObject({ code: -32602, message: 'Unknown task: no-such-task' });
    // An id it never gave is clipped in the refusal (a client may send any length).
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect((await send(method, { taskId: 'y'.repeat(3_000), inputResponses: {} })).error).toEqual({ code: -32602, message: `Unknown task: ${'y'.repeat(64)}` });
    }
    expect((await send('tasks/result', { taskId: 'no-such-task' })).error).toMatchObject({ code: -32601 });
    expect((await send('tasks/list', {})).error).toMatchObject({ code: -32601 });
  });

  it('runs an optional task tool synchronously for a client without the extension, and refuses a required one (-32021)', async () => {
    const plainClient = modernClient(url, {});
    probe.release.resolve('now');
    expect((await plainClient('tools/call', { name: 'wait', arguments: {} })).result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'released: now' }],
    });
    expect((await plainClient('tools/call', { name: 'must', arguments: {} })).error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    // A per-request declaration is enough, and a legacy `task` param does not make a plain tool a task.
    expect((await plainClient('tools/call', { name: 'must', arguments: {}, _meta: { 'io.modelcontextprotocol/clientCapabilities': TASKS } })).result).toMatchObject({
      resultType: 'task',
    });
    expect((await send('tools/call', { name: 'plain', arguments: { name: 'x' }, task: { ttl: 1000 } })).result).toMatchObject({ resultType: 'complete' });
  });

  it('parks a task on input_required with every request it raised, keeps the unanswered ones after a partial update, and resumes', async () => {
    const { result: created } = await send('tools/call', { name: 'twoAtOnce', arguments: {} });
    const parked = await pollTask(send, created.taskId, (task) => task.status === 'input_required');
    expect(Object.keys(parked.inputRequests).sort()).toEqual(['a', 'b']);
    expect(parked.inputRequests.a).toMatchObject({ method: 'elicitation/create', params: { message: 'A?' } });
    const ack = await send('tasks/update', { taskId: created.taskId, inputResponses: { a: { action: 'accept', content: { name: 'Ada' } }, stray: {} } });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect(ack.result.status).toBeUndefined();
    const partial = (await send('tasks/get', { taskId: created.taskId })).result;
    expect(partial).toMatchObject({ status: 'input_required' });
    expect(Object.keys(partial.inputRequests)).toEqual(['b']);
    await send('tasks/update', { taskId: created.taskId, inputResponses: { b: { action: 'decline' } } });
    const done = await pollTask(send, created.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'a=Ada b=decline' }]);
  });

  it('with start: on-demand, asks round by round without a task, then answers with the task once the method calls ctx.startTask()', async () => {
    const round1 = (await send('tools/call', { name: 'askThenTask', arguments: {} })).result;
    expect(round1).toMatchObject({ resultType: 'input_required', inputRequests: { who: { method: 'elicitation/create' } } });
    expect(round1.taskId).toBeUndefined();
    const round2 = (
      await send('tools/call', {
        name: 'askThenTask',
        arguments: {},
        inputResponses: { who: { action: 'accept', content: { name: 'Grace' } } },
        requestState: round1.requestState,
      })
    ).result;
    expect(round2).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 120_000, pollIntervalMs: 250 });
    expect(round2.requestState).toBeUndefined();
    const done = await pollTask(send, round2.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'hello Grace (task: true)' }]);
    // A method that returns before starting the task answers with its result.
    expect((await send('tools/call', { name: 'quickOrTask', arguments: { slow: false } })).result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'quick' }],
    });
  });

  it('with start: on-demand, a progress message after ctx.startTask() becomes the task’s statusMessage', async () => {
    const { result: created } = await send('tools/call', { name: 'startThenReport', arguments: {} });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    await within(probe.started.promise, 'the method to report');
    await pollTask(send, created.taskId, (task) => task.statusMessage === 'after the start');
    probe.release.resolve('on');
    const done = await pollTask(send, created.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'reported: on' }]);
  });

  it('asks a task tool’s guards before the task exists: one that refuses is answered as an unknown tool, no task is made, the method never runs', async () => {
    const denied = await send('tools/call', { name: 'guarded', arguments: { allow: false } });
    expect(denied).toMatchObject({ status: 200, error: { code: -32602, message: 'Unknown tool: guarded' } });
    expect(denied.result).toBeUndefined();
    expect(probe.runs).toBe(0);
    const { result: allowed } = await send('tools/call', { name: 'guarded', arguments: { allow: true } });
    const done = await pollTask(send, allowed.taskId, (task) => task.status !== 'working');
    expect(done.result.content).toEqual([{ type: 'text', text: 'guarded ran (true)' }]);
    expect(probe.guardCalls).toBe(2);
  });

  it('checks Mcp-Name against the taskId of task methods (-32020 on a mismatch)', async () => {
    const { result: created } = await send('tools/call', { name: 'toolFails', arguments: {} });
    const mismatch = await send('tasks/get', { taskId: created.taskId }, { 'mcp-name': 'another-task' });
    expect(mismatch).toMatchObject({ status: 400, error: { code: -32020 } });
  });
});
