import { ProtocolError, ProtocolErrorCode, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import { ForwardingChannel, isModernRevision, type RequestChannel } from '../../context';
import { RequestError, RpcCode } from '../../errors';
import { missingScopes } from '../../context';
import type { McpAuth } from '../../interfaces';
import { requestFailure } from '../../invocation';
import { TASKS_EXTENSION, TERMINAL_STATUSES, type TaskRecord } from '../../tasks';
import type { ToolDefinition } from '../../tools';
import { toWireError } from '../error-mapping';
import { clientHeader } from '../peer-headers';
import { SdkRequestChannel } from '../request-channel';
import type { SessionRuntime } from '../session-runtime';
import { originOf, taskProgressToken } from './tasks-channel';
import { ANONYMOUS } from './tasks-service';
import type { TaskService } from './tasks-service';
import { declaresTasks, detailedTask, LEGACY_TASK_CAPABILITIES, legacyTask, modernTask, relatedTo, TASK_EXTENSION_CAPABILITIES, taskResult } from './tasks-wire';

/** A `tools/call` as the task path reads it. */
export interface TaskToolCall {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  readonly _meta?: { progressToken?: unknown };
  /** 2025-11-25 task augmentation (`{ ttl }`); ignored on 2026-07-28, where the server decides. */
  readonly task?: { ttl?: unknown } | null;
}


/** -32021 (HTTP 400) naming the tasks extension in `data.requiredCapabilities`, as the extension requires. */
function extensionRequired(message: string): unknown {
  return toWireError(new RequestError(RpcCode.MissingRequiredClientCapability, message, { requiredCapabilities: TASK_EXTENSION_CAPABILITIES }));
}

/**
 * Runs a `tools/call` of a task tool as a task when the call asks for one (2025-11-25: `params.task`;
 * 2026-07-28: the client declared the tasks extension); undefined: an ordinary call. A tool with
 * `task: 'required'` called otherwise is refused (-32601 on 2025-11-25, -32021 on 2026-07-28).
 */
export function taskCall(
  runtime: SessionRuntime,
  ctx: ServerContext,
  tool: ToolDefinition,
  params: TaskToolCall,
  convert: (outcome: unknown) => Record<string, unknown>,
): Promise<unknown> | undefined {
  const { tasks } = runtime;
  const settings = tool.task;
  if (!tasks || !settings) return undefined;
  const target = `tool:${tool.name}`;
  const channel = new SdkRequestChannel(ctx, runtime.server, params._meta?.progressToken as string | number | undefined, runtime.services, target, runtime.connection);
  // A caller without the tool's scopes gets no task: the ordinary call refuses it, and the method never runs.
  const needed = tool.pipeline.requiredScopes;
  if (needed && missingScopes(channel.auth, needed).length > 0) return undefined;
  const modern = isModern(channel);
  const asked = modern ? declaresTasks(channel.client) : typeof params.task === 'object' && params.task !== null;
  if (!asked) {
    if (settings.support !== 'required') return undefined;
    if (modern) throw extensionRequired(`Tool '${tool.name}' runs only as a task, and the client did not declare the '${TASKS_EXTENSION}' extension.`);
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Tool '${tool.name}' runs only as a task: call it with params.task (tasks, protocol revision 2025-11-25).`);
  }
  const owner = tasks.ownerOf(channel.auth, channel.sessionId);
  // An anonymous HTTP caller (no token, no session; a stdio or in-memory connection is one client) may be refused.
  if (tasks.options.anonymous === 'refuse' && owner === ANONYMOUS && runtime.connection.id === undefined) {
    throw toWireError(
      new RequestError(
        RpcCode.InvalidRequest,
        `Cannot run tool '${tool.name}' as a task: this server runs tasks only for callers with a verified token or a session. Authenticate, or call it over a 2025-11-25 session.`,
        { limit: 'anonymous' },
      ),
    );
  }
  const answer = (record: TaskRecord) => taskResult(modern ? { resultType: 'task', ...modernTask(record) } : { task: legacyTask(record) });
  const base = {
    owner,
    // The HTTP endpoint names the client as its own bounds count it (`clientKey`, else the remote address).
    client: tasks.clientOf(channel.auth, channel.sessionId, ctx.http?.req?.headers.get(clientHeader()) ?? undefined),
    tool,
    args: params.arguments,
    legacy: !modern,
    convert,
    ttlMs: tasks.ttlOf(tool, modern ? undefined : params.task?.ttl),
    pollIntervalMs: settings.pollIntervalMs ?? tasks.options.pollIntervalMs,
  };
  if (settings.start === 'immediately') {
    const origin = originOf(channel, modern ? undefined : runtime.server);
    return tasks.start({ ...base, origin, controller: new AbortController() }).then(answer, (error: unknown) => {
      // A store that fails (its connection lost) is logged and masked like a component's failure.
      throw requestFailure(error, `starting a task of tool '${tool.name}'`, 'task store', runtime.app.policy);
    });
  }
  return onDemand(runtime, ctx, tasks, channel, { ...base, modern, target, answer });
}

/**
 * `start: 'on-demand'`: the call runs as an ordinary call (answering input requests round by round) until the
 * method calls `ctx.startTask()`; then the task is created with the answers so far, the client gets it, and the
 * same run goes on as the task.
 */
function onDemand(
  runtime: SessionRuntime,
  ctx: ServerContext,
  tasks: TaskService,
  channel: SdkRequestChannel,
  call: Omit<Parameters<TaskService['start']>[0], 'origin' | 'controller'> & { modern: boolean; target: string; answer: (record: TaskRecord) => unknown },
): Promise<unknown> {
  const controller = new AbortController();
  const request = ctx.mcpReq.signal;
  const follow = () => controller.abort(request.reason);
  request.addEventListener('abort', follow, { once: true });
  const holder: { running?: Promise<unknown> } = {};
  let started: Promise<TaskRecord> | undefined;
  let announce!: (record: TaskRecord) => void;
  const announced = new Promise<TaskRecord>((resolve) => (announce = resolve));
  const { modern, target, answer, ...start } = call;
  const startTask = () =>
    (started ??= Promise.resolve().then(async () => {
      request.removeEventListener('abort', follow);
      const record = await tasks.start({
        ...start,
        origin: originOf(channel, modern ? undefined : runtime.server),
        controller,
        answers: runtime.rounds.answers(ctx, target),
        running: Promise.resolve().then(() => holder.running!),
      });
      own.task = record;
      announce(record);
      return record;
    }));
  const own = new OnDemandChannel(channel, controller.signal, async () => (await startTask(), true), (taskId, message) => tasks.progress(start.owner, taskId, message));
  return runtime.rounds.run(ctx, target, async () => {
    const running = Promise.resolve().then(() => start.tool.pipeline.call(start.args, () => own, undefined));
    holder.running = running;
    const first = await Promise.race([running.then((value) => ({ value })), announced.then((record) => ({ record }))]);
    if ('record' in first) return answer(first.record);
    request.removeEventListener('abort', follow);
    return start.convert(first.value);
  });
}

/**
 * The request's channel with the task's signal and `startTask()`; once the call became a task, progress messages
 * are its `statusMessage`, as in any task run.
 */
class OnDemandChannel extends ForwardingChannel {
  /** The task, once `startTask()` created it. */
  task?: TaskRecord;

  constructor(
    base: RequestChannel,
    private readonly taskSignal: AbortSignal,
    private readonly start: () => Promise<boolean>,
    private readonly progress: (taskId: string, message: string) => void,
  ) {
    super(base);
  }
  /** The request's token, else (once a task) one of the task's own, so that progress messages reach the task. */
  override get progressToken(): string | number | undefined {
    return this.base.progressToken ?? (this.task && taskProgressToken(this.task.taskId));
  }
  override async notify(method: string, params: Record<string, unknown>): Promise<void> {
    if (!this.task) return this.base.notify(method, params);
    if (method === 'notifications/progress') {
      if (typeof params.message === 'string') this.progress(this.task.taskId, params.message);
      if (this.base.progressToken === undefined) return; // the client asked for no progress
    }
    // The call was answered with the task: its stream may be gone, which must not fail the task.
    await this.base.notify(method, params).catch(() => undefined);
  }
  override get signal(): AbortSignal {
    return this.taskSignal;
  }
  override startTask(): Promise<boolean> {
    return this.start();
  }
}

/** Params checked the way the SDK's custom-method registration wants them (Standard Schema). */
function paramsSchema<T>(check: (params: Record<string, unknown>) => string | undefined): StandardSchemaV1<T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp-reflect',
      validate: (value: unknown) => {
        const problem = typeof value === 'object' && value !== null ? check(value as Record<string, unknown>) : 'params must be an object';
        return problem ? { issues: [{ message: problem }] } : { value: value as T };
      },
    },
  } as StandardSchemaV1<T>;
}

// The SDK lifts `inputResponses` out of every 2026-07-28 request's params (`ctx.mcpReq.inputResponses`), so
// tasks/update is checked like the others, and reads `inputResponses` itself.
const TASK_ID = paramsSchema<{ taskId: string; inputResponses?: unknown }>((p) =>
  typeof p.taskId === 'string' && p.taskId !== '' ? undefined : 'taskId must be a non-empty string',
);
const PAGE = paramsSchema<{ cursor?: string }>((p) => (p.cursor === undefined || typeof p.cursor === 'string' ? undefined : 'cursor must be a string'));

/**
 * Registers the task methods on a session's server and declares tasks: 2025-11-25 `capabilities.tasks`
 * (`tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`) and the 2026-07-28 extension
 * `io.modelcontextprotocol/tasks` (`tasks/get`, `tasks/update`, `tasks/cancel`, gated by the client's declaration).
 */
export function answerTasks(runtime: SessionRuntime, tasks: TaskService): void {
  const { server } = runtime;
  server.registerCapabilities({ ...LEGACY_TASK_CAPABILITIES, ...TASK_EXTENSION_CAPABILITIES } as never);
  const caller = (ctx: ServerContext) => {
    const channel = new SdkRequestChannel(ctx, server, undefined, runtime.services, '', runtime.connection);
    const modern = isModern(channel);
    if (modern && !declaresTasks(channel.client)) throw extensionRequired(`Task methods need the '${TASKS_EXTENSION}' extension, which the client did not declare.`);
    return { modern, auth: channel.auth, owner: tasks.ownerOf(channel.auth, channel.sessionId) };
  };
  const find = async (who: Caller, taskId: string): Promise<TaskRecord> => {
    // No task id of ours is that long (they are UUIDs): the store is not asked.
    const record = taskId.length <= MAX_TASK_ID ? await tasks.store.get(who.owner, taskId) : undefined;
    // Unknown, expired and another owner's tasks, and tasks whose tool needs scopes the caller's token lacks, are
    // answered alike: every task method finds them through here.
    if (!record || !tasks.mayUse(who.auth, record)) throw unknownTask(taskId);
    return record;
  };
  const on = <T>(method: string, schema: StandardSchemaV1<T>, handler: (params: T, ctx: ServerContext) => Promise<unknown>) =>
    server.setRequestHandler(method, { params: schema }, ((params: T, ctx: ServerContext) => handler(params, ctx).catch((error: unknown) => {
      // A store that fails (its connection lost) is logged and masked: nothing internal reaches the client.
      throw toWireError(requestFailure(error, `serving ${method}`, 'task store', runtime.app.policy));
    })) as never);

  on('tasks/get', TASK_ID, async ({ taskId }, ctx) => {
    const who = caller(ctx);
    const record = await find(who, taskId);
    const { modern } = who;
    return modern ? detailedTask(record) : legacyTask(record);
  });

  on('tasks/update', TASK_ID, async ({ taskId, inputResponses: inParams }, ctx) => {
    const who = caller(ctx);
    const { modern, owner } = who;
    // 2025-11-25 has no tasks/update: its tasks ask the client directly.
    if (!modern) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found: tasks/update (protocol revision 2026-07-28 only)');
    const inputResponses = ctx.mcpReq.inputResponses ?? inParams;
    if (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params for tasks/update: inputResponses must be an object of answers by key.');
    }
    await find(who, taskId);
    // Keys the task is not waiting for (unknown, already answered, a terminal task) are ignored.
    if (!(await tasks.store.answer(owner, taskId, inputResponses as Record<string, unknown>))) throw unknownTask(taskId);
    return { resultType: 'complete' };
  });

  on('tasks/cancel', TASK_ID, async ({ taskId }, ctx) => {
    const who = caller(ctx);
    const { modern, owner } = who;
    const record = await find(who, taskId);
    const cancelled = TERMINAL_STATUSES.includes(record.status)
      ? undefined
      : await tasks.store.update(owner, taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client.' }, ['working', 'input_required']);
    // 2026-07-28: an empty ack, also for a terminal task; 2025-11-25: the cancelled task, or -32602 once terminal.
    if (modern) return { resultType: 'complete' };
    if (!cancelled) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${taskId} is already ${(await find(who, taskId)).status} and cannot be cancelled.`);
    return legacyTask(cancelled);
  });

  // 2025-11-25 only: on 2026-07-28 the SDK answers these -32601 (the result is inlined in tasks/get).
  on('tasks/result', TASK_ID, async ({ taskId }, ctx) => {
    const who = caller(ctx);
    await find(who, taskId);
    const record = await tasks.settled(who.owner, taskId, ctx.mcpReq.signal);
    if (!record) throw unknownTask(taskId);
    if (record.status === 'failed' && record.error) throw new ProtocolError(record.error.code, record.error.message, record.error.data);
    if (record.status !== 'completed' || !record.result) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Task ${taskId} was cancelled: it has no result.`);
    return { ...record.result, _meta: relatedTo(taskId, record.result._meta) };
  });

  on('tasks/list', PAGE, async ({ cursor }, ctx) => {
    const who = caller(ctx);
    // Unauthenticated HTTP clients without a session share one pool: none of them may list the others' tasks.
    if (who.owner === 'anonymous' && ctx.http) return { tasks: [] };
    const page = await tasks.store.list(who.owner, cursor, tasks.options.pageSize);
    // A task the caller's scopes do not reach is left out, as if it did not exist (the page may come out shorter).
    const shown = page.tasks.filter((record) => tasks.mayUse(who.auth, record));
    return { tasks: shown.map(legacyTask), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });
}

/** The longest task id looked up: ours are UUIDs (36 characters). */
const MAX_TASK_ID = 128;

/** -32602 for a task the caller cannot reach; the id it sent is clipped, as the catalogues clip a cursor. */
function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId.slice(0, 64)}`);
}

/** Who sent a task method: the era, the identity (for scopes) and the owner key. */
interface Caller {
  readonly modern: boolean;
  readonly auth: McpAuth | undefined;
  readonly owner: string;
}

function isModern(channel: RequestChannel): boolean {
  return isModernRevision(channel.protocolVersion);
}
