import 'reflect-metadata';
import { IsBoolean } from 'class-validator';
import { Context, Ctx, Injectable, McpFactory, McpModule, Module, Scopes, Tool, ToolError, type McpApplication } from 'mcp-reflect';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';
import { deferred, within } from '../support/waiting';
import { JSON_AND_SSE, messagesOf } from '../support/http-helpers';
import { createTestClient } from 'mcp-reflect/testing';
import { legacyRequest } from './legacy-client';
import { openLegacySession, requestFrom } from './legacy-wire';
import { modernClient, pollTask, TASKS_AND_ELICITATION } from './modern-wire';

class Confirm {
  @IsBoolean() confirm!: boolean;
}

const held = { release: deferred<void>(), aborted: deferred<void>() };

/** Task tools whose use needs `notes:read notes:write`, and one that needs nothing. */
@Injectable()
class NotesTasks {
  @Tool({ task: 'optional' })
  @Scopes('notes:read', 'notes:write')
  async secret(): Promise<string> {
    return 'the secret';
  }

  @Tool({ task: 'optional' })
  @Scopes('notes:read', 'notes:write')
  async hold(@Ctx() ctx: Context): Promise<string> {
    ctx.signal.addEventListener('abort', () => held.aborted.resolve(), { once: true });
    await new Promise<void>((resolve, reject) => {
      held.release.promise.then(resolve, reject);
      ctx.signal.addEventListener('abort', () => reject(new ToolError('stopped')), { once: true });
    });
    return 'held';
  }

  @Tool({ task: 'optional' })
  @Scopes('notes:read', 'notes:write')
  async confirm(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('Sure?', Confirm, { key: 'sure' });
    return answer.action === 'accept' && answer.content.confirm ? 'confirmed' : 'not confirmed';
  }

  @Tool({ task: 'optional' })
  async open(): Promise<string> {
    return 'open to all';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'task-identity', version: '1.0.0', logger: { error() {}, warn() {} } })],
  providers: [NotesTasks],
})
class NotesTasksModule {}

const now = () => Math.floor(Date.now() / 1000);
const UNKNOWN = (taskId: string) => ({ code: -32602, message: `Unknown task: ${taskId}` });

/**
 * Tasks belong to the owner key sessions use (issuer and subject), and keep the scopes their tool needs: with
 * two issuers and real tokens (two authorization servers sign them), the same client id and subject at the
 * other issuer, and the same subject with fewer scopes, find none of them, on every task method of both eras.
 */
describe('tasks over HTTP with two issuers: the owner and the scopes of a task', () => {
  let first: AuthorizationServer;
  let second: AuthorizationServer;
  let app: McpApplication;
  let url: string;
  /** A token of `as` for alice at client x (the same claims at either issuer). */
  const tokenOf = (as: AuthorizationServer, scope = 'notes:read notes:write') =>
    as.sign({ iss: as.issuer, aud: url, sub: 'alice', client_id: 'x', scope, iat: now(), exp: now() + 600 });

  beforeAll(async () => {
    [first, second] = await Promise.all([startAuthorizationServer(), startAuthorizationServer()]);
    app = await McpFactory.create(NotesTasksModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, auth: { issuer: [first.issuer, second.issuer] } });
    url = await app.getUrl();
  }, 30_000);
  afterAll(async () => {
    held.release.resolve();
    await app?.close();
    await Promise.all([first?.close(), second?.close()]);
  });

  describe('2025-11-25 (sessions)', () => {
    it('answers a task of the same client id and subject at the other issuer as unknown, and lists none of it', async () => {
      const mine = await openLegacySession(url, { token: await tokenOf(first) });
      const theirs = await openLegacySession(url, { token: await tokenOf(second) });
      const { result } = await mine.send('tools/call', { name: 'secret', arguments: {}, task: {} });
      const { taskId } = result.task;
      expect((await mine.send('tasks/result', { taskId })).result).toMatchObject({ content: [{ type: 'text', text: 'the secret' }] });
      for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
        expect((await theirs.send(method, { taskId })).error).toEqual(UNKNOWN(taskId));
      }
      expect((await theirs.send('tasks/list')).result).toEqual({ tasks: [] });
      expect((await mine.send('tasks/list')).result.tasks.map((t: { taskId: string }) => t.taskId)).toContain(taskId);
    });

    it('answers a task whose tool needs notes:write as unknown to a notes:read token of the same subject, on every method', async () => {
      const full = await openLegacySession(url, { token: await tokenOf(first) });
      const readOnly = await openLegacySession(url, { token: await tokenOf(first, 'notes:read') });
      const done = (await full.send('tools/call', { name: 'secret', arguments: {}, task: {} })).result.task.taskId;
      expect((await full.send('tasks/result', { taskId: done })).result).toMatchObject({ content: [{ type: 'text', text: 'the secret' }] });
      held.aborted = deferred<void>();
      const running = (await full.send('tools/call', { name: 'hold', arguments: {}, task: {} })).result.task.taskId;
      const open = (await full.send('tools/call', { name: 'open', arguments: {}, task: {} })).result.task.taskId;
      for (const taskId of [done, running]) {
        for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
          expect((await readOnly.send(method, { taskId })).error).toEqual(UNKNOWN(taskId));
        }
      }
      // The task it may see is listed and served; the scoped ones are left out.
      const listed = (await readOnly.send('tasks/list')).result.tasks.map((t: { taskId: string }) => t.taskId);
      expect(listed).toContain(open);
      expect(listed).not.toContain(done);
      expect(listed).not.toContain(running);
      expect((await readOnly.send('tasks/get', { taskId: open })).result).toMatchObject({ taskId: open });
      // Its cancel changed nothing: the run goes on, and its owner still cancels it.
      expect((await full.send('tasks/get', { taskId: running })).result).toMatchObject({ status: 'working' });
      expect((await full.send('tasks/cancel', { taskId: running })).result).toMatchObject({ status: 'cancelled' });
      await within(held.aborted.promise, 'the run to be aborted by its owner');
    });
  });

  describe('2025-11-25 on a stateless endpoint (no session)', () => {
    let stateless: McpApplication;
    let statelessUrl: string;
    beforeAll(async () => {
      stateless = await McpFactory.create(NotesTasksModule);
      await stateless.listen({ transport: 'http', host: '127.0.0.1', port: 0, stateless: true, auth: { issuer: [first.issuer, second.issuer] } });
      statelessUrl = await stateless.getUrl();
    });
    afterAll(() => stateless?.close());

    /** One 2025-11-25 request without a session, under `token`. */
    const as = (token: string) => {
      let id = 0;
      return async (method: string, params: Record<string, unknown> = {}) => {
        const body = { jsonrpc: '2.0', id: ++id, method, params };
        const headers = { ...JSON_AND_SSE, 'mcp-protocol-version': '2025-11-25' };
        const response = await requestFrom(statelessUrl, { token }, { headers, body: JSON.stringify(body) });
        const reply = messagesOf(response.body).find((message) => message.id === body.id);
        return { status: response.status, result: reply?.result, error: reply?.error };
      };
    };
    const tokenHere = (as: AuthorizationServer, scope?: string) =>
      as.sign({ iss: as.issuer, aud: statelessUrl, sub: 'alice', client_id: 'x', scope: scope ?? 'notes:read notes:write', iat: now(), exp: now() + 600 });

    it('serves a task to its owner only: not to the other issuer, not to a token without its scopes', async () => {
      const mine = as(await tokenHere(first));
      const otherIssuer = as(await tokenHere(second));
      const readOnly = as(await tokenHere(first, 'notes:read'));
      const { result } = await mine('tools/call', { name: 'secret', arguments: {}, task: {} });
      const { taskId } = result.task;
      expect((await mine('tasks/result', { taskId })).result).toMatchObject({ content: [{ type: 'text', text: 'the secret' }] });
      for (const send of [otherIssuer, readOnly]) {
        for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) expect((await send(method, { taskId })).error).toEqual(UNKNOWN(taskId));
        expect((await send('tasks/list')).result.tasks).toEqual([]);
      }
    });
  });

  describe('2026-07-28 (the tasks extension, no session)', () => {
    const as = (token: string) => modernClient(url, TASKS_AND_ELICITATION, { authorization: `Bearer ${token}` });

    it('answers a task of the same client id and subject at the other issuer as unknown', async () => {
      const mine = as(await tokenOf(first));
      const theirs = as(await tokenOf(second));
      const { result: created } = await mine('tools/call', { name: 'secret', arguments: {} });
      await pollTask(mine, created.taskId, (task) => task.status === 'completed');
      for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
        expect((await theirs(method, { taskId: created.taskId, inputResponses: {} })).error).toEqual(UNKNOWN(created.taskId));
      }
    });

    it('answers a scoped task as unknown to a token of the same subject without the scopes: get, update and cancel', async () => {
      const full = as(await tokenOf(first));
      const readOnly = as(await tokenOf(first, 'notes:read'));
      const { result: done } = await full('tools/call', { name: 'secret', arguments: {} });
      await pollTask(full, done.taskId, (task) => task.status === 'completed');
      expect((await readOnly('tasks/get', { taskId: done.taskId })).error).toEqual(UNKNOWN(done.taskId));
      const { result: asking } = await full('tools/call', { name: 'confirm', arguments: {} });
      await pollTask(full, asking.taskId, (task) => task.status === 'input_required');
      const answer = { sure: { action: 'accept', content: { confirm: true } } };
      expect((await readOnly('tasks/update', { taskId: asking.taskId, inputResponses: answer })).error).toEqual(UNKNOWN(asking.taskId));
      expect((await readOnly('tasks/cancel', { taskId: asking.taskId })).error).toEqual(UNKNOWN(asking.taskId));
      // Neither reached the task: it still waits for its owner's answer.
      expect((await full('tasks/get', { taskId: asking.taskId })).result).toMatchObject({ status: 'input_required' });
      await full('tasks/update', { taskId: asking.taskId, inputResponses: answer });
      const settled = await pollTask(full, asking.taskId, (task) => task.status === 'completed');
      expect(settled.result.content).toEqual([{ type: 'text', text: 'confirmed' }]);
    });
  });
});

describe('a task call without the scopes of its tool (in memory: no HTTP gate in front)', () => {
  it('creates no task: the call is refused as an ordinary call would be, and the method never runs', async () => {
    const app = await McpFactory.create(NotesTasksModule);
    try {
      const readOnly = await createTestClient(app, { auth: { subject: 'alice', clientId: 'x', scopes: ['notes:read'] } });
      const full = await createTestClient(app, { auth: { subject: 'alice', clientId: 'x', scopes: ['notes:read', 'notes:write'] } });
      const ordinary = await legacyRequest(readOnly, 'tools/call', { name: 'secret', arguments: {} }).catch((error: unknown) => error);
      const asTask = await legacyRequest(readOnly, 'tools/call', { name: 'secret', arguments: {}, task: {} }).catch((error: unknown) => error);
      expect(asTask).toEqual(ordinary);
      expect((asTask as { task?: unknown }).task).toBeUndefined();
      expect((await legacyRequest(full, 'tasks/list')).tasks).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

