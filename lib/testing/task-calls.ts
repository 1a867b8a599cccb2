import type { CallToolResult, Client, JSONRPCMessage } from '@modelcontextprotocol/client';

/** A task as a client sees it, in either era (2025-11-25's `ttl` / `pollInterval`, 2026-07-28's `ttlMs` / `pollIntervalMs`). */
export interface TaskInfo {
  readonly taskId: string;
  readonly status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt?: string;
  readonly ttl?: number | null;
  readonly pollInterval?: number;
  readonly ttlMs?: number | null;
  readonly pollIntervalMs?: number;
  /** 2026-07-28 `tasks/get`: the result of a completed task, the error of a failed one, the questions of one waiting. */
  readonly result?: CallToolResult;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  readonly inputRequests?: Readonly<Record<string, unknown>>;
}

/** What a task-augmented `tools/call` answers: a task, or (the server's choice, 2026-07-28) the result at once. */
export type TaskCallOutcome = { readonly task: TaskInfo } | { readonly result: CallToolResult };

/**
 * Task-augmented tool calls through an SDK client, in both eras: the SDK client's `callTool()` cannot take a task
 * for an answer (its result check refuses it) and has no typed task methods. 2025-11-25: the call asks for a task
 * (`params.task`), `tasks/result` waits for the result. 2026-07-28: the client must declare the
 * `io.modelcontextprotocol/tasks` extension (`createTestClient(M, { protocolVersion: '2026-07-28', capabilities:
 * { extensions: { 'io.modelcontextprotocol/tasks': {} } } })`), the server decides, and the result comes with
 * `tasks/get` once the task is done. See docs/tasks.md.
 *
 * @example
 * const tasks = taskCalls(client);
 * const outcome = await tasks.call({ name: 'yearlyReport', arguments: { year: 2026 } });
 * if ('task' in outcome) console.log(await tasks.result(outcome.task.taskId));
 */
export interface TaskCalls {
  call(params: { readonly name: string; readonly arguments?: Record<string, unknown> }, options?: { readonly ttl?: number }): Promise<TaskCallOutcome>;
  get(taskId: string): Promise<TaskInfo>;
  /** The task's result once it is done (a failed task rejects with its error; a cancelled one too). */
  result(taskId: string, options?: { readonly timeout?: number }): Promise<CallToolResult>;
  cancel(taskId: string): Promise<TaskInfo>;
}

/** Accepts any result: the task methods have no typed surface in the SDK client. */
const ANY = { '~standard': { version: 1, vendor: 'mcp-reflect', validate: (value: unknown) => ({ value }) } } as const;
/** The `_meta` key under which a 2026-07-28 task answer reaches `call()` past the SDK client's result check. */
const CARRIED = 'mcp-reflect/task';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

const carriers = new WeakMap<Client, Set<unknown>>();

export function taskCalls(client: Client): TaskCalls {
  const modern = () => client.getNegotiatedProtocolVersion?.() === '2026-07-28';
  const request = <T>(method: string, params: Record<string, unknown>, timeout?: number): Promise<T> =>
    client.request({ method, params } as never, ANY as never, timeout !== undefined ? { timeout } : undefined) as Promise<T>;
  const get = (taskId: string) => request<TaskInfo>('tasks/get', { taskId });
  return {
    async call(params, options = {}) {
      if (!modern()) {
        const answer = await request<{ task?: TaskInfo } & CallToolResult>('tools/call', { ...params, task: options.ttl !== undefined ? { ttl: options.ttl } : {} });
        return answer.task ? { task: answer.task } : { result: answer };
      }
      carryTaskAnswers(client);
      const answer = await request<CallToolResult & { _meta?: Record<string, unknown> }>('tools/call', { ...params, _meta: { [CARRIED]: true } });
      const task = answer._meta?.[CARRIED] as TaskInfo | undefined;
      return task ? { task } : { result: answer };
    },
    get,
    async result(taskId, options = {}) {
      if (!modern()) return request<CallToolResult>('tasks/result', { taskId }, options.timeout ?? 300_000);
      const deadline = Date.now() + (options.timeout ?? 300_000);
      for (;;) {
        const task = await get(taskId);
        if (task.status === 'completed' && task.result) return task.result;
        if (TERMINAL.has(task.status)) throw new Error(`Task ${taskId} ended ${task.status}${task.error ? `: ${task.error.message}` : task.statusMessage ? `: ${task.statusMessage}` : ''}.`);
        if (Date.now() > deadline) throw new Error(`Task ${taskId} was still ${task.status} after ${options.timeout ?? 300_000} ms.`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(task.pollIntervalMs ?? 100, 1_000)));
      }
    },
    async cancel(taskId) {
      const answer = await request<TaskInfo | Record<string, never>>('tasks/cancel', { taskId });
      return 'taskId' in answer ? (answer as TaskInfo) : get(taskId);
    },
  };
}

/**
 * On 2026-07-28 the SDK client refuses a `tools/call` answered with `resultType: "task"`. For the calls `call()`
 * marks (`_meta`), the answer is handed to the client as an empty complete result carrying the task in `_meta`;
 * every other message passes untouched. Installed once per client, on its transport.
 */
function carryTaskAnswers(client: Client): void {
  if (carriers.has(client)) return;
  const marked = new Set<unknown>();
  carriers.set(client, marked);
  const transport = (client as unknown as { transport?: { send(message: JSONRPCMessage, options?: unknown): Promise<void>; onmessage?: (message: JSONRPCMessage, extra?: unknown) => void } }).transport;
  if (!transport) throw new Error('taskCalls(): the client is not connected.');
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const params = (message as { method?: string; id?: unknown; params?: { _meta?: Record<string, unknown> } }).params;
    if ((message as { method?: string }).method === 'tools/call' && params?._meta?.[CARRIED]) {
      marked.add((message as { id?: unknown }).id);
      const { [CARRIED]: _mark, ...meta } = params._meta;
      message = { ...message, params: { ...params, _meta: meta } } as JSONRPCMessage;
    }
    return send(message, options);
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const { id, result } = message as { id?: unknown; result?: Record<string, unknown> };
    if (id !== undefined && marked.delete(id) && result?.resultType === 'task') {
      const { resultType: _type, ...task } = result;
      message = { ...message, result: { resultType: 'complete', content: [], _meta: { [CARRIED]: task } } } as JSONRPCMessage;
    }
    receive?.(message, extra);
  };
}
