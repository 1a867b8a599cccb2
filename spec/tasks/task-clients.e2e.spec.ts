import 'reflect-metadata';
import { Context, Ctx, Injectable, InMemoryTaskStore, McpFactory, McpModule, Module, Tool, ToolError, type McpApplication, type TasksOptions, type TaskStoreOptions } from 'mcp-reflect';
import { openLegacySession, type LegacySession, type Peer } from './legacy-wire';
import { modernClient, pollTask, TASKS } from './modern-wire';
import { waitFor } from '../support/waiting';

/** What the specs observe of the runs. */
const runs = { started: 0, aborted: 0 };

@Injectable()
class ClientTasks {
  /** Runs until its task is cancelled or dropped. */
  @Tool({ task: 'optional' })
  async hold(@Ctx() ctx: Context): Promise<string> {
    runs.started++;
    return new Promise<string>((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => (runs.aborted++, reject(new ToolError('stopped'))), { once: true });
    });
  }

  /** A 30 KB result. */
  @Tool({ task: 'optional' })
  async big(): Promise<string> {
    return 'x'.repeat(30_000);
  }
}

/** An application on 127.0.0.1 with a small task store; clients connect from 127.0.0.x addresses of their own. */
async function serve(
  store: TaskStoreOptions,
  http: { stateless?: boolean; clientKey?: (request: Request) => string | undefined } = {},
  tasks: Omit<TasksOptions, 'store'> = {},
): Promise<{ app: McpApplication; url: string }> {
  @Module({
    imports: [
      McpModule.forRoot({ name: 'task-clients', version: '1.0.0', logger: { error() {}, warn() {} }, tasks: { store: new InMemoryTaskStore(store), defaultTtlMs: 600_000, ...tasks } }),
    ],
    providers: [ClientTasks],
  })
  class ClientTasksModule {}
  const app = await McpFactory.create(ClientTasksModule);
  await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, ...http });
  return { app, url: await app.getUrl() };
}

const FROM_A: Peer = { localAddress: '127.0.0.2' };
const FROM_B: Peer = { localAddress: '127.0.0.3' };

/** Starts `tool` as a 2025-11-25 task in `session`: the task, or the JSON-RPC error. */
async function startIn(session: LegacySession, tool = 'hold'): Promise<{ task?: { taskId: string }; error?: { code: number; data?: any } }> {
  const { result, error } = await session.send('tools/call', { name: tool, arguments: {}, task: {} });
  return error ? { error } : { task: result.task };
}

/**
 * One anonymous client (one remote address) must not fill the task store for everyone: the sessions of one
 * address share one per-client bound (tasks and bytes), as the stateless anonymous pool of 2026-07-28 does, and
 * the tasks of a session that ended go with it. Real sockets from distinct loopback addresses.
 */
describe('tasks of anonymous clients: one bound per remote address', () => {
  let served: { app: McpApplication; url: string } | undefined;
  beforeEach(() => Object.assign(runs, { started: 0, aborted: 0 }));
  afterEach(async () => {
    await served?.app.close();
    served = undefined;
  });

  it('counts the tasks of every session of one address against one bound, and another address still starts its own', async () => {
    served = await serve({ maxTasksPerClient: 5, maxTasks: 12 });
    const sessions = await Promise.all([1, 2, 3, 4].map(() => openLegacySession(served!.url, FROM_A)));
    const outcomes = [];
    for (const session of sessions) for (let i = 0; i < 3; i++) outcomes.push(await startIn(session));
    expect(outcomes.filter((o) => o.task)).toHaveLength(5);
    for (const refused of outcomes.filter((o) => o.error)) {
      expect(refused.error).toMatchObject({ code: -32600, data: { limit: 'maxTasksPerClient', max: 5 } });
    }
    const other = await openLegacySession(served.url, FROM_B);
    expect((await startIn(other)).task).toBeDefined();
  });

  it('bounds the bytes of one address across its sessions: a result beyond them fails its task, another address keeps room', async () => {
    served = await serve({ maxBytesPerClient: 40_000, maxBytes: 100_000 });
    const results = [];
    for (let i = 0; i < 4; i++) {
      const session = await openLegacySession(served.url, FROM_A);
      const { task } = await startIn(session, 'big');
      results.push(await session.send('tasks/result', { taskId: task!.taskId }));
    }
    expect(results[0].result?.content[0].text).toHaveLength(30_000);
    for (const failed of results.slice(1)) expect(failed.error).toMatchObject({ code: -32600, data: { limit: 'maxBytesPerClient', max: 40_000 } });
    const other = await openLegacySession(served.url, FROM_B);
    const { task } = await startIn(other, 'big');
    expect((await other.send('tasks/result', { taskId: task!.taskId })).result?.content[0].text).toHaveLength(30_000);
  });

  it('counts by clientKey when one is given (behind a proxy every client has its address): two tenants of one address', async () => {
    served = await serve({ maxTasksPerClient: 2, maxTasks: 50 }, { stateless: true, clientKey: (request) => request.headers.get('x-tenant') ?? undefined });
    const tenant = (name: string) => modernClient(served!.url, TASKS, { 'x-tenant': name }, FROM_A);
    const [one, two] = [tenant('one'), tenant('two')];
    for (let i = 0; i < 2; i++) expect((await one('tools/call', { name: 'hold', arguments: {} })).result).toMatchObject({ resultType: 'task' });
    expect((await one('tools/call', { name: 'hold', arguments: {} })).error).toMatchObject({ data: { limit: 'maxTasksPerClient', max: 2 } });
    expect((await two('tools/call', { name: 'hold', arguments: {} })).result).toMatchObject({ resultType: 'task' });
  });

  it('bounds the stateless anonymous pool (2026-07-28) per address, not for all at once', async () => {
    served = await serve({ maxTasksPerClient: 3, maxTasks: 50 }, { stateless: true });
    const a = modernClient(served.url, TASKS, {}, FROM_A);
    const b = modernClient(served.url, TASKS, {}, FROM_B);
    for (let i = 0; i < 3; i++) expect((await a('tools/call', { name: 'hold', arguments: {} })).result).toMatchObject({ resultType: 'task' });
    expect((await a('tools/call', { name: 'hold', arguments: {} })).error).toMatchObject({ code: -32600, data: { limit: 'maxTasksPerClient', max: 3 } });
    const { result } = await b('tools/call', { name: 'big', arguments: {} });
    expect(result).toMatchObject({ resultType: 'task' });
    await pollTask(b, result.taskId, (task) => task.status === 'completed');
  });

  it('drops the tasks of an ended session and aborts their runs: the next session of the same address starts tasks again', async () => {
    served = await serve({ maxTasksPerClient: 5, maxTasks: 50 });
    const sessions = await Promise.all([1, 2, 3].map(() => openLegacySession(served!.url, FROM_A)));
    const started: { session: LegacySession; taskId: string }[] = [];
    for (const session of sessions) {
      for (let i = 0; i < 2; i++) {
        const { task } = await startIn(session);
        if (task) started.push({ session, taskId: task.taskId });
      }
    }
    expect(started).toHaveLength(5);
    const refused = await startIn(await openLegacySession(served.url, FROM_A));
    expect(refused.error).toMatchObject({ data: { limit: 'maxTasksPerClient' } });
    for (const session of sessions) expect(await session.end()).toBe(200);
    // DELETE alone ends them: the session's tasks go with it, their runs aborted.
    await waitFor(() => runs.aborted === 5 || undefined, { what: 'the runs of the ended sessions to be aborted' });
    const next = await openLegacySession(served.url, FROM_A);
    for (let i = 0; i < 5; i++) expect((await startIn(next)).task).toBeDefined();
  });

  it("refuses tasks for anonymous callers with tasks.anonymous: 'refuse', and still runs them for a session", async () => {
    served = await serve({}, {}, { anonymous: 'refuse' });
    const anonymous = modernClient(served.url, TASKS, {}, FROM_A);
    expect((await anonymous('tools/call', { name: 'big', arguments: {} })).error).toEqual({
      code: -32600,
      message:
        "Cannot run tool 'big' as a task: this server runs tasks only for callers with a verified token or a session. Authenticate, or call it over a 2025-11-25 session.",
      data: { limit: 'anonymous' },
    });
    expect(runs.started).toBe(0);
    expect((await startIn(await openLegacySession(served.url, FROM_A), 'big')).task).toBeDefined();
  });
});

/**
 * A cancelled task no longer holds a place: where a bound is reached, the cancelled task nearest its expiry gives
 * its place to the new one (docs/tasks.md), as the refusal text promises. Real sockets, both eras.
 */
describe('cancelling frees a task place', () => {
  let served: { app: McpApplication; url: string } | undefined;
  afterEach(async () => {
    await served?.app.close();
    served = undefined;
  });

  it('2026-07-28: cancelled anonymous tasks give their places to new ones; a full client is told so', async () => {
    served = await serve({ maxTasksPerClient: 3 });
    const send = modernClient(served.url, TASKS, {}, FROM_A);
    const first: string[] = [];
    for (let i = 0; i < 3; i++) first.push((await send('tools/call', { name: 'hold', arguments: {} })).result.taskId);
    const refused = (await send('tools/call', { name: 'hold', arguments: {} })).error;
    expect(refused).toMatchObject({ code: -32600, data: { limit: 'maxTasksPerClient', max: 3 } });
    expect(refused!.message).toContain('Cancel one with tasks/cancel (a cancelled task gives its place to the next one)');
    for (const taskId of first) expect((await send('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    expect((await send('tasks/get', { taskId: first[0] })).result).toMatchObject({ status: 'cancelled' });
    for (let i = 0; i < 3; i++) expect((await send('tools/call', { name: 'hold', arguments: {} })).result).toMatchObject({ resultType: 'task', status: 'working' });
    // The cancelled tasks gave their places: they are gone; the working ones are kept, and the client is full again.
    for (const taskId of first) expect((await send('tasks/get', { taskId })).error).toMatchObject({ code: -32602 });
    expect((await send('tools/call', { name: 'hold', arguments: {} })).error).toMatchObject({ data: { limit: 'maxTasksPerClient' } });
  });

  it('2025-11-25: a task cancelled in one session makes room for the next, in any session of the client', async () => {
    served = await serve({ maxTasksPerClient: 2 });
    const one = await openLegacySession(served.url, FROM_A);
    const two = await openLegacySession(served.url, FROM_A);
    const completed = (await startIn(one, 'big')).task!.taskId;
    expect((await one.send('tasks/result', { taskId: completed })).result).toBeDefined();
    const cancelled = (await startIn(one)).task!.taskId;
    expect((await startIn(two)).error).toMatchObject({ data: { limit: 'maxTasksPerClient' } });
    expect((await one.send('tasks/cancel', { taskId: cancelled })).result).toMatchObject({ status: 'cancelled' });
    expect((await startIn(two)).task).toBeDefined();
    // A completed task keeps its place (its result may still be read): only cancelled ones give theirs.
    expect((await one.send('tasks/get', { taskId: completed })).result).toMatchObject({ status: 'completed' });
    expect((await startIn(two)).error).toMatchObject({ data: { limit: 'maxTasksPerClient' } });
  });
});

