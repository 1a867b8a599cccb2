/**
 * What a queued task carries to the worker that runs it (plain JSON): the tool and its arguments, and what its
 * Context shows of the request that created it. Never the bearer token: `ctx.auth.token` is empty on a worker.
 */
export interface QueuedTask {
  readonly taskId: string;
  readonly owner: string;
  /** Whose bounds it counts against (its address when anonymous): queued runs of different clients take turns. */
  readonly client?: string;
  readonly tool: string;
  readonly args?: Record<string, unknown>;
  /** A 2025-era session created it. */
  readonly legacy: boolean;
  readonly request: QueuedRequest;
}

/** The request that created a queued task, as its run's Context shows it. */
export interface QueuedRequest {
  readonly requestId: string | number;
  readonly sessionId?: string;
  readonly protocolVersion?: string;
  readonly client?: { readonly name?: string; readonly version?: string; readonly capabilities: Readonly<Record<string, unknown>> };
  readonly auth?: {
    readonly clientId: string;
    readonly subject?: string;
    readonly issuer?: string;
    readonly scopes: readonly string[];
    readonly expiresAt?: number;
    readonly claims: Readonly<Record<string, unknown>>;
  };
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The owner of the caller's `ctx.state`, as the request resolved it. */
  readonly stateOwner?: string;
}

/** How a worker runs what it takes from the queue. */
export interface TaskRunner {
  /** Runs `task` (`attempt` 1 the first time, more after a worker died running it); resolves once its task is settled. */
  run(task: QueuedTask, attempt: number): Promise<void>;
  /** The queue gave up on `task` (it stalled more often than allowed): its task fails with `reason`. */
  abandon(task: QueuedTask, reason: string): Promise<void>;
}

/**
 * A durable queue of task runs (`tasks: { queue }`, docs/tasks.md#durable-queue): a task-augmented call enqueues
 * its run, and a worker of any instance sharing the queue runs it. `RedisTaskQueue` (mcp-reflect/redis, on
 * BullMQ) is one; a queue of your own implements this.
 */
export interface TaskQueue {
  /**
   * Throws a `TaskLimitError` when the queue of `tool`'s runs holds as many as it may, else holds a place for
   * `taskId` (atomically: concurrent calls on every instance cannot pass the bound together). Asked before the task
   * is created, so that a refused call leaves no task behind (that would count against the caller's bounds).
   */
  admit?(tool: string, taskId: string): Promise<void>;
  /** Gives back the place `admit` held for `taskId`: its task could not be created. */
  release?(tool: string, taskId: string): Promise<void>;
  /** Queues the run (in the place `admit` held); a queue without `admit` throws a `TaskLimitError` here (backpressure) when it is full. */
  enqueue(task: QueuedTask): Promise<void>;
  /** Starts taking runs in this process, each handed to `runner`; resolves once the worker listens. */
  work(runner: TaskRunner): Promise<void>;
  /** Stops the worker (runs in progress are left to the queue's retry) and releases connections. */
  close(): Promise<void>;
}
