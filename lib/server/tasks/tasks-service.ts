import { createHash, randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { InputRequiredSignal, type InputSpec } from '../../context';
import { missingScopes, ownerOf as identityOf } from '../../context';
import type { McpAuth } from '../../interfaces';
import type { ServerLogger } from '../../interfaces';
import { TERMINAL_STATUSES, TaskLimitError, type QueuedTask, type ResolvedTasksOptions, type TaskChange, type TaskError, type TaskEvent, type TaskRecord, type TaskRunner, type TaskStatus } from '../../tasks';
import type { ResolvedStateOptions } from '../../state';
import type { ToolDefinition } from '../../tools';
import { toWireError } from '../error-mapping';
import { toInputRequest } from '../input-required';
import { TaskChannel, type TaskOrigin } from './tasks-channel';
import { queuedOf, queuedOrigin } from './tasks-queue';
import { legacyTask, relatedTo } from './tasks-wire';

/** One task this process runs: what re-running its method takes (the method is re-entered with new answers). */
export interface LiveTask {
  readonly taskId: string;
  readonly owner: string;
  /** Whose bounds it counts against (see `TaskService.clientOf`). */
  readonly client: string;
  readonly tool: ToolDefinition;
  readonly args: Record<string, unknown> | undefined;
  readonly origin: TaskOrigin;
  /** Aborted by `tasks/cancel` (the run's `ctx.signal`). */
  readonly controller: AbortController;
  /** A 2025-era session: input requests go to the client directly, through the session's server. */
  readonly legacy: boolean;
  /** The method's outcome as the tool's wire result. */
  readonly convert: (outcome: unknown) => Record<string, unknown>;
  timer?: ReturnType<typeof setTimeout>;
}

/** What starting a task takes. */
export interface TaskStart extends Omit<LiveTask, 'taskId' | 'timer'> {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** Answers gathered before the call became a task (multi-round-trip input first). */
  readonly answers?: Record<string, unknown>;
  /** The run, when it began before the task (`start: 'on-demand'`); else the service starts it. */
  readonly running?: Promise<unknown>;
}

/** The owner of the tasks of callers without a token or a session. */
export const ANONYMOUS = 'anonymous';
const WORKING: readonly TaskStatus[] = ['working'];
/** The longest delay `setTimeout` keeps (a longer one would fire at once). */
const MAX_DELAY = 2 ** 31 - 1;
const CANCELLED = 'The task was cancelled.';
const EXPIRED = 'The task expired: its TTL has passed.';
const SESSION_ENDED = 'The task ended with its session.';

/** What a worker needs to run queued tasks: the tools by name, and where `ctx.state` lives. */
export interface TaskWorkerContext {
  readonly tool: (name: string) => ToolDefinition | undefined;
  readonly state: ResolvedStateOptions;
}

/**
 * Runs tools as tasks for one application: creates each task in the store, runs the method through the tool's
 * one pipeline with a task channel, and writes where it ends (completed, failed, input_required). Cancellation
 * and answers may arrive at any instance sharing the store: its events reach the instance running the task.
 */
export class TaskService implements TaskRunner {
  private readonly live = new Map<string, LiveTask>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly unwatch: () => void | Promise<void>;

  constructor(
    readonly options: ResolvedTasksOptions,
    private readonly logger: ServerLogger,
    private readonly worker?: TaskWorkerContext,
  ) {
    this.unwatch = options.store.watch((event) => this.onEvent(event));
    // With a durable queue, this process takes runs from it (unless `tasks.worker` is false).
    if (options.queue && options.worker && worker) {
      options.queue.work(this).catch((error: unknown) => this.logger.error(`Could not start the task worker: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  get store() {
    return this.options.store;
  }

  /**
   * Whose tasks a request may see: its verified identity (the one key sessions use too: the token's issuer and
   * subject, or its client id without a subject), else its session, else the anonymous pool.
   */
  ownerOf(auth: McpAuth | undefined, sessionId: string | undefined): string {
    if (auth) return `auth:${identityOf(auth)}`;
    return sessionId ? `session:${sessionId}` : ANONYMOUS;
  }

  /**
   * Whose bounds a new task counts against (docs/tasks.md, "Owners and limits"): a verified identity is its own
   * client; without one, the remote address of the connection (so that the sessions of one address share one
   * bound, and the anonymous pool is not one bound for all), else the session, else the anonymous pool.
   */
  clientOf(auth: McpAuth | undefined, sessionId: string | undefined, remoteAddress: string | undefined): string {
    if (auth) return this.ownerOf(auth, undefined);
    // An address is short; anything longer (a key derived from a header) is kept as its digest.
    if (remoteAddress) return `peer:${remoteAddress.length > 128 ? createHash('sha256').update(remoteAddress).digest('base64url') : remoteAddress}`;
    return this.ownerOf(undefined, sessionId);
  }

  /** Whether `auth` grants the scopes the task's tool needs: a caller who may not call the tool may not see its tasks. */
  mayUse(auth: McpAuth | undefined, record: TaskRecord): boolean {
    return !record.scopes || missingScopes(auth, record.scopes).length === 0;
  }

  /** The TTL of a new task: the tool's, else the server's default; a 2025 client's `task.ttl` within `maxTtlMs`. */
  ttlOf(tool: ToolDefinition, requested: unknown): number {
    const own = tool.task?.ttlMs ?? this.options.defaultTtlMs;
    if (typeof requested !== 'number' || !Number.isFinite(requested) || requested < 1) return own;
    return Math.min(Math.floor(requested), this.options.maxTtlMs);
  }

  /** Creates the task (durably: `tasks/get` finds it once this resolves) and starts its run. */
  async start(start: TaskStart): Promise<TaskRecord> {
    const taskId = randomUUID();
    const queue = !start.running ? this.options.queue : undefined;
    if (queue) await queue.admit?.(start.tool.name, taskId);
    const record = await this.create(start, taskId).catch(async (error: unknown) => {
      await queue?.release?.(start.tool.name, taskId).catch(() => undefined);
      throw error;
    });
    const { ttlMs: _ttl, pollIntervalMs: _poll, answers: _answers, running, ...rest } = start;
    if (queue) return this.enqueue(start, record);
    const live: LiveTask = { ...rest, taskId };
    this.live.set(taskId, live);
    // The process forgets a task whose TTL passed, whatever state it was left in, and stops its run. Relative to
    // now: the store may keep a clock of its own.
    live.timer = setTimeout(() => this.forget(taskId, EXPIRED), Math.min(record.ttlMs, MAX_DELAY));
    live.timer.unref?.();
    if (running) void this.finish(live, running, undefined);
    else void this.execute(live);
    return record;
  }

  private create(start: TaskStart, taskId: string): Promise<TaskRecord> {
    return this.store.create({
      taskId,
      owner: start.owner,
      client: start.client,
      tool: start.tool.name,
      ...(start.tool.pipeline.requiredScopes ? { scopes: start.tool.pipeline.requiredScopes } : {}),
      ttlMs: start.ttlMs,
      pollIntervalMs: start.pollIntervalMs,
      ...(start.answers ? { answers: start.answers } : {}),
    });
  }

  /** Puts the run on the durable queue; a full queue (or a failing one) fails the task and refuses the call. */
  private async enqueue(start: TaskStart, record: TaskRecord): Promise<TaskRecord> {
    const call = { taskId: record.taskId, owner: start.owner, client: start.client, tool: start.tool.name, ...(start.args ? { args: start.args } : {}), legacy: start.legacy };
    try {
      await this.options.queue!.enqueue(queuedOf(start.origin, call));
    } catch (error) {
      const failed = error instanceof TaskLimitError ? error.toTaskError() : { code: ProtocolErrorCode.InternalError, message: 'Internal error' };
      await this.store.update(start.owner, record.taskId, { status: 'failed', error: failed }, WORKING).catch(() => undefined);
      throw error;
    }
    return record;
  }

  /** Runs a task a worker took from the queue, through its tool's one pipeline; resolves once the run ended. */
  async run(task: QueuedTask, attempt: number): Promise<void> {
    const record = await this.store.get(task.owner, task.taskId);
    if (!record || record.status !== 'working') return; // cancelled, expired or settled before this worker took it
    const tool = this.worker?.tool(task.tool);
    if (!tool?.task) return void (await this.settle(task, NO_TOOL(task.tool)));
    if (attempt > 1 && !tool.task.retry) return void (await this.settle(task, NOT_RETRIED(task.tool)));
    const live: LiveTask = {
      taskId: task.taskId,
      owner: task.owner,
      client: task.client ?? task.owner,
      // The guards were asked when the call was made, by the instance that enqueued it.
      tool: tool.pipeline.guarded ? { ...tool, pipeline: tool.pipeline.admitted() } : tool,
      args: task.args,
      origin: queuedOrigin(task, this.worker!.state),
      controller: new AbortController(),
      legacy: false,
      convert: (outcome) => outcome as Record<string, unknown>,
    };
    this.live.set(task.taskId, live);
    live.timer = setTimeout(() => this.forget(task.taskId, EXPIRED), Math.min(Math.max(1, record.expiresAt - Date.now()), MAX_DELAY));
    live.timer.unref?.();
    await this.execute(live);
  }

  /** The queue gave up on a run (its workers kept dying): its task fails, saying so. */
  async abandon(task: QueuedTask, reason: string): Promise<void> {
    await this.settle(task, { code: ProtocolErrorCode.InternalError, message: `The task's run was cut short too often and is not run again (${reason}).` });
  }

  private async settle(task: QueuedTask, error: TaskError): Promise<void> {
    await this.store.update(task.owner, task.taskId, { status: 'failed', error }, ['working', 'input_required']);
  }

  /**
   * Resolves once the task is terminal (or gone): 2025 `tasks/result` waits on it. A request that ends first
   * (`signal`: the client cancelled it, or went away) stops waiting and leaves nothing behind.
   */
  async settled(owner: string, taskId: string, signal: AbortSignal): Promise<TaskRecord | undefined> {
    while (!signal.aborted) {
      let resolve!: () => void;
      const waiting = new Promise<void>((done) => (resolve = done));
      let set = this.waiters.get(taskId);
      if (!set) this.waiters.set(taskId, (set = new Set()));
      set.add(resolve);
      const stop = () => this.unwait(taskId, resolve);
      signal.addEventListener('abort', stop, { once: true });
      // A task whose run ended elsewhere without a word (its process died) is waited for until its TTL only.
      let expiry: ReturnType<typeof setTimeout> | undefined;
      try {
        const record = await this.store.get(owner, taskId);
        if (!record || TERMINAL_STATUSES.includes(record.status)) return record;
        expiry = setTimeout(resolve, Math.min(Math.max(1_000, record.expiresAt - Date.now()), record.ttlMs, MAX_DELAY));
        expiry.unref?.();
        await waiting;
      } finally {
        clearTimeout(expiry);
        signal.removeEventListener('abort', stop);
        this.unwait(taskId, resolve);
      }
    }
    throw signal.reason;
  }

  /** A progress message of a run: the task's `statusMessage`, while it works (a failed write is not the run's failure). */
  progress(owner: string, taskId: string, message: string): void {
    void this.store.update(owner, taskId, { status: 'working', statusMessage: message }, WORKING).catch(() => undefined);
  }

  /**
   * A 2025-11-25 session ended for good (deleted by its client, its handshake never completed, evicted where no
   * other instance can take it up): its tasks go with it, freeing their places and bytes, and their runs are
   * aborted wherever they run (the store publishes each as cancelled).
   */
  async sessionEnded(sessionId: string): Promise<void> {
    const owner = this.ownerOf(undefined, sessionId);
    // A custom store may not publish: the runs of this process stop either way.
    for (const live of [...this.live.values()]) if (live.owner === owner) this.forget(live.taskId, SESSION_ENDED);
    await this.store.dropOwner(owner);
  }

  /** Stops listening to the store and aborts every run of this process. */
  async close(): Promise<void> {
    const unwatched = this.unwatch();
    for (const taskId of [...this.live.keys()]) this.forget(taskId, CANCELLED);
    await Promise.all([unwatched, this.options.queue?.close()]);
  }

  /** Runs (or re-runs, with every answer so far) the task's method through its pipeline. */
  private async execute(live: LiveTask): Promise<void> {
    let record: TaskRecord | undefined;
    try {
      record = await this.store.get(live.owner, live.taskId);
    } catch (error) {
      // Nothing may reject unheard here (it would end the process): the task fails, masked.
      await this.write(live, { status: 'failed', error: this.failure(live, error) });
      return;
    }
    if (!record || record.status !== 'working') return;
    const channel = new TaskChannel(live.origin, live.controller.signal, record.answers ?? {}, {
      taskId: live.taskId,
      progress: (message) => this.progress(live.owner, live.taskId, message),
    });
    let running: Promise<unknown>;
    try {
      running = Promise.resolve(live.tool.pipeline.call(live.args, () => channel, undefined));
    } catch (error) {
      running = Promise.reject(error);
    }
    await this.finish(live, running, channel);
  }

  /** Writes where a run ended: its result, its input requests, or its protocol error. */
  private async finish(live: LiveTask, running: Promise<unknown>, channel: TaskChannel | undefined): Promise<void> {
    let change: TaskChange;
    try {
      change = { status: 'completed', result: live.convert(await running) };
    } catch (error) {
      if (error instanceof InputRequiredSignal) return this.park(live, [error, ...(channel?.raised ?? [])]);
      change = { status: 'failed', error: this.failure(live, error) };
    }
    await this.write(live, change);
  }

  /** The run needs input: every request it raised is pending at once (the client may answer them one by one). */
  private async park(live: LiveTask, signals: readonly InputRequiredSignal[]): Promise<void> {
    const pending = new Map<string, InputSpec>();
    for (const signal of signals) for (const { key, spec } of signal.requests) if (!pending.has(key)) pending.set(key, spec);
    const inputRequests = Object.fromEntries([...pending].map(([key, spec]) => [key, toInputRequest(spec)]));
    const parked = await this.write(live, { status: 'input_required', inputRequests });
    if (parked && live.legacy) for (const [key, spec] of pending) void this.askDirectly(live, key, spec);
  }

  /**
   * 2025 eras: the session's server asks the client itself (the request carries the task in its `_meta`), and the
   * answer is recorded as a `tasks/update` would record it.
   */
  private async askDirectly(live: LiveTask, key: string, spec: InputSpec): Promise<void> {
    const server = live.origin.server;
    try {
      if (!server) throw new ProtocolError(ProtocolErrorCode.InternalError, 'The task needs input, and its session is gone.');
      const related = { _meta: relatedTo(live.taskId) };
      // The user may take as long as the task lives (not the SDK's 60 s); a cancelled or expired task withdraws it.
      const options = { signal: live.controller.signal, timeout: MAX_DELAY };
      const answer =
        spec.kind === 'elicit'
          ? await server.elicitInput({ message: spec.message, requestedSchema: spec.requestedSchema as never, ...related }, options)
          : spec.kind === 'elicitUrl'
            ? await server.elicitInput({ mode: 'url', message: spec.message, url: spec.url, elicitationId: randomUUID(), ...related } as never, options)
            : spec.kind === 'sample'
              ? await server.createMessage({ ...(spec.params as Record<string, unknown>), ...related } as never, options)
              : await server.listRoots(related, options);
      await this.store.answer(live.owner, live.taskId, { [key]: answer });
    } catch (error) {
      await this.write(live, { status: 'failed', error: this.failure(live, error) }, ['working', 'input_required']);
    }
  }

  private async write(live: LiveTask, change: TaskChange, from: readonly TaskStatus[] = WORKING): Promise<TaskRecord | undefined> {
    try {
      const written = await this.store.update(live.owner, live.taskId, change, from);
      if (written && TERMINAL_STATUSES.includes(written.status)) this.forget(live.taskId);
      // 2025-11-25 sessions hear of each change of status (notifications/tasks/status, optional in the spec).
      if (written && live.legacy && written.status !== 'working') {
        void live.origin.server?.notification({ method: 'notifications/tasks/status', params: legacyTask(written) } as never).catch(() => undefined);
      }
      return written;
    } catch (error) {
      this.logger.error(`Could not record the state of task ${live.taskId} (tool '${live.tool.name}'): ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** A run's protocol error as the failed task carries it (`error{code,message,data}`); anything else is logged and masked. */
  private failure(live: LiveTask, error: unknown): TaskError {
    const shown = shownError(error);
    if (shown) return shown;
    this.logger.error(`Task ${live.taskId} of tool '${live.tool.name}' failed:`, error);
    return { code: ProtocolErrorCode.InternalError, message: 'Internal error' };
  }

  private onEvent(event: TaskEvent): void {
    if (event.kind === 'cancelled') this.forget(event.taskId, CANCELLED);
    if (event.kind === 'answered') {
      const live = this.live.get(event.taskId);
      if (live) void this.execute(live);
    }
    if (event.kind !== 'answered') this.wake(event.taskId);
  }

  private unwait(taskId: string, resolve: () => void): void {
    const set = this.waiters.get(taskId);
    if (!set?.delete(resolve)) return;
    resolve();
    if (set.size === 0) this.waiters.delete(taskId);
  }

  private wake(taskId: string): void {
    const set = this.waiters.get(taskId);
    if (!set) return;
    this.waiters.delete(taskId);
    for (const resolve of set) resolve();
  }

  /** This process no longer runs the task; with a reason, its run's signal is aborted. */
  private forget(taskId: string, abort?: string): void {
    const live = this.live.get(taskId);
    if (!live) return;
    this.live.delete(taskId);
    clearTimeout(live.timer);
    if (abort) live.controller.abort(new Error(abort));
    this.wake(taskId);
  }
}

const NO_TOOL = (tool: string): TaskError => ({
  code: ProtocolErrorCode.InternalError,
  message: `The task's tool '${tool}' is not a task tool of the worker that took it: run workers with the same module as the servers.`,
});
const NOT_RETRIED = (tool: string): TaskError => ({
  code: ProtocolErrorCode.InternalError,
  message: `The task's run was cut short (the process running it stopped), and tool '${tool}' is not run again (@Tool({ task: { retry: false } })). Start a new task if it is safe to.`,
});

/** A protocol error as a failed task shows it; undefined for anything else (which is masked). */
function shownError(error: unknown): TaskError | undefined {
  const wire = toWireError(error);
  return wire instanceof ProtocolError ? { code: wire.code, message: wire.message, ...(wire.data !== undefined ? { data: wire.data } : {}) } : undefined;
}
