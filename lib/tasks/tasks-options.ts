import { BootstrapError, BootstrapErrorCode, wholeOption } from '../errors';
import { InMemoryTaskStore } from './memory-task-store';
import type { TaskStore } from './task-store';
import type { TaskQueue } from './task-queue';

/** The extension id of tasks in protocol revision 2026-07-28 (SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Options of `McpModule.forRoot({ tasks })`: where tasks live and how long. */
export interface TasksOptions {
  /** Default: an `InMemoryTaskStore` with its default bounds. `RedisTaskStore` shares tasks between instances. */
  store?: TaskStore;
  /** How long a task is kept after it was created, unless its tool sets `ttlMs` (ms). Default 3,600,000 (1 hour). */
  defaultTtlMs?: number;
  /** The longest TTL a 2025-11-25 client may ask for with `task.ttl` (ms). Default 86,400,000 (1 day). */
  maxTtlMs?: number;
  /** How often clients should poll `tasks/get`, unless the tool sets it (ms). Default 1,000. */
  pollIntervalMs?: number;
  /** Tasks per page of 2025-11-25 `tasks/list`. Default 50. */
  pageSize?: number;
  /**
   * Tasks of anonymous HTTP callers (no verified token, no 2025-11-25 session): `'allow'` (the default) counts them
   * per remote address; `'refuse'` answers their task calls -32600, so that only identified callers hold tasks.
   */
  anonymous?: 'allow' | 'refuse';
  /**
   * A durable queue of runs (docs/tasks.md#durable-queue): a task call enqueues its run, and a worker of any instance
   * sharing the queue (and the store) runs it; a run cut short by a dying process is run again. Default: runs stay
   * in the process that started them.
   */
  queue?: TaskQueue;
  /** With a `queue`: whether this process runs queued tasks too (default true); false: it only enqueues. */
  worker?: boolean;
}

/** The options with their defaults, checked once. */
export interface ResolvedTasksOptions {
  readonly store: TaskStore;
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  readonly pageSize: number;
  readonly anonymous: 'allow' | 'refuse';
  readonly queue?: TaskQueue;
  readonly worker: boolean;
}

/** Fills in the defaults; a bad number fails the bootstrap with the fix. */
export function resolveTasksOptions(options: TasksOptions = {}): ResolvedTasksOptions {
  const option = (name: 'defaultTtlMs' | 'maxTtlMs' | 'pollIntervalMs' | 'pageSize', fallback: number, unit: string) =>
    wholeOption((value) => `McpModule.forRoot({ tasks: { ${name}: ${value} } })`, options[name], fallback, unit);
  const maxTtlMs = option('maxTtlMs', 86_400_000, 'milliseconds');
  const anonymous = options.anonymous ?? 'allow';
  if (anonymous !== 'allow' && anonymous !== 'refuse') {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      `Cannot use McpModule.forRoot({ tasks: { anonymous: ${JSON.stringify(anonymous)} } }): it is neither 'allow' nor 'refuse'.\nFix: write anonymous: 'refuse' to run tasks only for callers with a token or a session, or leave it out.`,
    );
  }
  return {
    anonymous,
    ...(options.queue ? { queue: options.queue } : {}),
    worker: options.worker !== false,
    store: options.store ?? new InMemoryTaskStore(),
    defaultTtlMs: Math.min(option('defaultTtlMs', 3_600_000, 'milliseconds'), maxTtlMs),
    maxTtlMs,
    pollIntervalMs: option('pollIntervalMs', 1_000, 'milliseconds'),
    pageSize: option('pageSize', 50, 'tasks per page'),
  };
}
