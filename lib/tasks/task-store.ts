/**
 * The status of a task (spec 2025-11-25 basic/utilities/tasks; SEP-2663 `io.modelcontextprotocol/tasks`).
 * `completed`, `failed` and `cancelled` are terminal: a terminal task never changes again.
 */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The terminal statuses. */
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** A JSON-RPC error, as a failed task carries it. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * One task as a store keeps it. Everything in it is plain JSON, so a store may serialise it (Redis does).
 * `owner` scopes it: a task is only ever read, answered or cancelled with the owner that created it.
 */
export interface TaskRecord {
  readonly taskId: string;
  /** Who created it (see docs/tasks.md: the caller's identity, else its session, else the anonymous pool). */
  readonly owner: string;
  /** The tool the task runs. */
  readonly tool: string;
  /** The scopes its tool needs (`@Scopes()`): a caller whose token lacks one is answered as if the task did not exist. */
  readonly scopes?: readonly string[];
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** How long the task is kept after it was created, in milliseconds. */
  readonly ttlMs: number;
  /** How often a client should poll `tasks/get`, in milliseconds. */
  readonly pollIntervalMs: number;
  /** Epoch milliseconds after which the task is gone. */
  readonly expiresAt: number;
  /** The tool's result (`CallToolResult`), once `completed`. */
  readonly result?: Record<string, unknown>;
  /** The JSON-RPC error, once `failed`. */
  readonly error?: TaskError;
  /** The input requests still unanswered (wire form, by key), while `input_required`. */
  readonly inputRequests?: Record<string, unknown>;
  /** Every answer the client gave so far (by key): the run is re-entered with them. */
  readonly answers?: Record<string, unknown>;
}

/** What creating a task takes (the store sets the times, the expiry and the status `working`). */
export interface NewTask {
  readonly taskId: string;
  readonly owner: string;
  /**
   * Whose bounds the task counts against (`maxTasksPerClient`, `maxBytesPerClient`): the owner when the caller
   * has a verified identity, else the remote address of its connection, else its session. Default: `owner`.
   */
  readonly client?: string;
  readonly tool: string;
  /** The scopes its tool needs, kept with the task (see `TaskRecord.scopes`). */
  readonly scopes?: readonly string[];
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** Answers the call already carried when it became a task (multi-round-trip input before the task). */
  readonly answers?: Record<string, unknown>;
}

/** A change of a task: its new status and what goes with it. */
export interface TaskChange {
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly result?: Record<string, unknown>;
  readonly error?: TaskError;
  readonly inputRequests?: Record<string, unknown>;
}

/** What a store tells every instance that shares it: a task was cancelled, or its last pending input was answered. */
export interface TaskEvent {
  readonly kind: 'cancelled' | 'answered' | 'settled';
  readonly taskId: string;
}

/** A page of an owner's tasks (2025-11-25 `tasks/list`). */
export interface TaskPage {
  readonly tasks: readonly TaskRecord[];
  readonly nextCursor?: string;
}

/**
 * Where tasks live between the call that creates them and the `tasks/get` that reads them. The in-memory store
 * serves one process; `RedisTaskStore` lets several instances share tasks. Every method is scoped by `owner`:
 * a task of another owner is answered as unknown. A store bounds what one client can fill (entries and bytes,
 * counted per `NewTask.client`) and what all of them hold.
 *
 * @example
 * McpModule.forRoot({ name: 'jobs', version: '1.0.0', tasks: { store: new InMemoryTaskStore({ maxTasksPerClient: 20 }) } })
 */
export interface TaskStore {
  /** Keeps a new task (status `working`); throws a `TaskLimitError` when its client or the store is full. */
  create(task: NewTask): Promise<TaskRecord>;
  /** The owner's task, or undefined: unknown, expired, or another owner's. */
  get(owner: string, taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `change` when the task is in one of the `from` statuses (never to a terminal task); returns the
   * changed record, or undefined when nothing changed. A change to `cancelled` is published as an event.
   */
  update(owner: string, taskId: string, change: TaskChange, from: readonly TaskStatus[]): Promise<TaskRecord | undefined>;
  /**
   * Records answers to pending input requests: keys the task is not waiting for are ignored, answered keys
   * leave `inputRequests`. When none is left, the `answered` event is published. Undefined: unknown task.
   */
  answer(owner: string, taskId: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined>;
  /** The owner's live tasks, newest last, `limit` per page. */
  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage>;
  /**
   * Drops every task of `owner` (its session ended for good): they are gone from then on, and their places
   * and bytes are free. Each is published as `cancelled`, so the instance running it aborts the run.
   * Resolves to how many were dropped.
   */
  dropOwner(owner: string): Promise<number>;
  /**
   * Listens to the events of every instance sharing the store; returns the way to stop listening (which may
   * resolve once what the listening held, a subscriber connection say, is released).
   */
  watch(listener: (event: TaskEvent) => void): () => void | Promise<void>;
  /** Releases connections and timers. */
  close?(): Promise<void>;
}
