import 'reflect-metadata';
import { Ctx, Injectable, McpModule, Module, Param, Tool, type Context } from 'mcp-reflect';
import { createTestClient, taskCalls, type TestClient } from 'mcp-reflect/testing';

@Injectable()
class ReportTools {
  @Tool({ description: 'Builds a report', task: 'optional' })
  async report(@Param() year: number, @Ctx() ctx: Context): Promise<string> {
    await ctx.reportProgress(1, 2, 'half way');
    await new Promise((resolve) => setTimeout(resolve, 50));
    return `report ${year}`;
  }

  @Tool({ description: 'Never ends until cancelled', task: 'required' })
  async forever(@Ctx() ctx: Context): Promise<string> {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
    return 'stopped';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'tasks', version: '1.0.0', tasks: {} })], providers: [ReportTools] })
class TasksModule {}

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text;

/** taskCalls() from mcp-reflect/testing: task-augmented calls through the official SDK client, in both eras. */
describe.each([
  ['2025-11-25', { tasks: {} }],
  ['2026-07-28', TASKS],
] as const)('taskCalls(client) on %s', (protocolVersion, capabilities) => {
  let client: TestClient;
  beforeEach(async () => {
    client = await createTestClient(TasksModule, { protocolVersion, capabilities: capabilities as never });
  });
  afterEach(() => client?.close());

  it('makes a task, reads it, and gets its result', async () => {
    const tasks = taskCalls(client);
    const outcome = await tasks.call({ name: 'report', arguments: { year: 2026 } }, { ttl: 60_000 });
    if (!('task' in outcome)) throw new Error(`no task: ${JSON.stringify(outcome)}`);
    expect(outcome.task).toMatchObject({ taskId: expect.any(String), status: 'working' });
    expect(await tasks.get(outcome.task.taskId)).toMatchObject({ taskId: outcome.task.taskId });
    expect(text(await tasks.result(outcome.task.taskId))).toBe('report 2026');
    // 2025-11-25: a call that asks for no task is an ordinary one, through the SDK client's own callTool (on
    // 2026-07-28 the server makes a task of it, the client having declared the extension).
    if (protocolVersion === '2025-11-25') expect(text(await client.callTool({ name: 'report', arguments: { year: 1 } }))).toBe('report 1');
  });

  it('cancels a task', async () => {
    const tasks = taskCalls(client);
    const outcome = await tasks.call({ name: 'forever', arguments: {} });
    if (!('task' in outcome)) throw new Error('no task');
    await tasks.cancel(outcome.task.taskId);
    expect(await tasks.get(outcome.task.taskId)).toMatchObject({ status: 'cancelled' });
    await expect(tasks.result(outcome.task.taskId, { timeout: 2_000 })).rejects.toThrow();
  });
});
