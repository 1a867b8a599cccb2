import type { JSONRPCRequest, Result, ServerContext } from '@modelcontextprotocol/server';
import type { ClientInfo } from '../../context';
import { TASKS_EXTENSION, type TaskRecord } from '../../tasks';

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** The 2025-11-25 `capabilities.tasks` of a server with task tools. */
export const LEGACY_TASK_CAPABILITIES = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

/** The 2026-07-28 extension declaration (SEP-2663). */
export const TASK_EXTENSION_CAPABILITIES = { extensions: { [TASKS_EXTENSION]: {} } };

// A task answer to tools/call passes the SDK's CallToolResult check by this placeholder, then replaces it.
const TASK_RESULTS = new WeakMap<object, Result>();
const PLACEHOLDER = { content: [] };
const IS_TASK_RESULT = Symbol('mcp-reflect:task-result');

/** Marks a tools/call answer as a task (a CreateTaskResult of either era), which the SDK's CallToolResult check must let through. */
export function taskResult(result: Record<string, unknown>): Result {
  return Object.defineProperty(result, IS_TASK_RESULT, { value: true, enumerable: false }) as Result;
}

/**
 * Wraps a handler the way the server's checks wrap it (`check`), so that on `tools/call` a task result reaches
 * the wire unchanged, and on `server/discover` the 2025-era `tasks` capability is left out: on 2026-07-28 tasks
 * are the `io.modelcontextprotocol/tasks` extension, and a v1 `capabilities.tasks` slot must not be advertised.
 * `taskResults`: whether tools/call may answer with a task at all.
 */
export function withTaskWire(method: string, handler: RequestHandler, check: (inner: RequestHandler) => RequestHandler, taskResults: boolean): RequestHandler {
  if (method === 'server/discover') {
    const checked = check(handler);
    return async (request, ctx) => {
      const result = (await checked(request, ctx)) as { capabilities?: Record<string, unknown> };
      if (!result.capabilities?.tasks) return result as Result;
      const { tasks: _legacy, ...capabilities } = result.capabilities;
      return { ...result, capabilities } as Result;
    };
  }
  // A session whose tools/call cannot answer with a task (no task tools) pays nothing for it per call.
  if (method !== 'tools/call' || !taskResults) return check(handler);
  const checked = check(async (request, ctx) => {
    const result = await handler(request, ctx);
    if (!(result as Record<symbol, unknown>)[IS_TASK_RESULT]) return result;
    TASK_RESULTS.set(request, result);
    return PLACEHOLDER as Result;
  });
  return async (request, ctx) => {
    const result = await checked(request, ctx);
    const task = TASK_RESULTS.get(request);
    if (!task) return result;
    TASK_RESULTS.delete(request);
    return task;
  };
}

/**
 * `_meta` with the task a message belongs to (spec 2025-11-25 tasks: the requests, notifications and results
 * related to a task carry `io.modelcontextprotocol/related-task`), added to what `meta` already holds.
 */
export function relatedTo(taskId: string, meta?: unknown): Record<string, unknown> {
  return { ...(typeof meta === 'object' && meta !== null ? meta : {}), 'io.modelcontextprotocol/related-task': { taskId } };
}

/** Whether the client declared the tasks extension (2026-07-28: in the request's envelope). */
export function declaresTasks(client: ClientInfo | undefined): boolean {
  const extensions = client?.capabilities.extensions as Record<string, unknown> | undefined;
  return typeof extensions === 'object' && extensions !== null && extensions[TASKS_EXTENSION] !== undefined;
}

/** What both eras show of a task. */
function taskFields(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
  };
}

/** A task as 2026-07-28 shows it (`CreateTaskResult` and the base of `tasks/get`). */
export function modernTask(record: TaskRecord): Record<string, unknown> {
  return { ...taskFields(record), ttlMs: record.ttlMs, pollIntervalMs: record.pollIntervalMs };
}

/** `tasks/get` on 2026-07-28: the task with its result, error or pending input inlined. */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  return {
    resultType: 'complete',
    ...modernTask(record),
    ...(record.status === 'completed' && record.result ? { result: { resultType: 'complete', ...record.result } } : {}),
    ...(record.status === 'failed' && record.error ? { error: record.error } : {}),
    ...(record.status === 'input_required' && record.inputRequests ? { inputRequests: record.inputRequests } : {}),
  };
}

/** A task as 2025-11-25 shows it (`Task`). */
export function legacyTask(record: TaskRecord): Record<string, unknown> {
  return { ...taskFields(record), ttl: record.ttlMs, pollInterval: record.pollIntervalMs };
}
