import { invalidCursor } from '../catalogue';
import type { TaskLimitError } from './task-limit.error';
import { TERMINAL_STATUSES, type NewTask, type TaskChange, type TaskEvent, type TaskPage, type TaskRecord, type TaskStatus } from './task-store';

/** How every store changes records (pure: the stores differ only in where they keep them). */

/** A new task, `working` from `now` (epoch ms) until its TTL ends. */
export function newRecord(task: NewTask, now: number): TaskRecord {
  const at = new Date(now).toISOString();
  return {
    taskId: task.taskId,
    owner: task.owner,
    tool: task.tool,
    ...(task.scopes && task.scopes.length > 0 ? { scopes: [...task.scopes] } : {}),
    status: 'working',
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
    expiresAt: now + task.ttlMs,
    ...(task.answers && Object.keys(task.answers).length > 0 ? { answers: task.answers } : {}),
  };
}

/** `record` after `change`, or undefined when it is terminal or not in one of the `from` statuses. */
export function changedRecord(record: TaskRecord, change: TaskChange, from: readonly TaskStatus[], now: number): TaskRecord | undefined {
  if (TERMINAL_STATUSES.includes(record.status) || !from.includes(record.status)) return undefined;
  const { result: _result, error: _error, inputRequests: _input, statusMessage, ...rest } = record;
  const terminal = TERMINAL_STATUSES.includes(change.status);
  return {
    ...rest,
    status: change.status,
    lastUpdatedAt: new Date(now).toISOString(),
    // A progress message stays until the next one; answers are no longer needed once the task ended.
    ...(change.statusMessage !== undefined ? { statusMessage: change.statusMessage } : statusMessage !== undefined && !terminal ? { statusMessage } : {}),
    ...(change.result ? { result: change.result } : {}),
    ...(change.error ? { error: change.error } : {}),
    ...(change.inputRequests ? { inputRequests: change.inputRequests } : {}),
    ...(terminal ? { answers: undefined } : {}),
  };
}

/**
 * `record` with the answers to its pending requests (other keys ignored); `done` when none is pending any more
 * (the task is `working` again, to be re-entered). Undefined: nothing to record.
 */
export function answeredRecord(record: TaskRecord, responses: Record<string, unknown>, now: number): { record: TaskRecord; done: boolean } | undefined {
  const pending = record.inputRequests;
  if (record.status !== 'input_required' || !pending) return undefined;
  const answered = Object.keys(responses).filter((key) => Object.hasOwn(pending, key));
  if (answered.length === 0) return undefined;
  const left = Object.fromEntries(Object.entries(pending).filter(([key]) => !answered.includes(key)));
  const done = Object.keys(left).length === 0;
  const { inputRequests: _pending, ...rest } = record;
  return {
    done,
    record: {
      ...rest,
      answers: { ...record.answers, ...Object.fromEntries(answered.map((key) => [key, responses[key]])) },
      lastUpdatedAt: new Date(now).toISOString(),
      ...(done ? { status: 'working' as const } : { inputRequests: left }),
    },
  };
}

/** What a store kept instead of a record too big for its byte budget: the task failed, its result dropped. */
export function overBudget(record: TaskRecord, limit: TaskLimitError): TaskRecord {
  const { result: _result, inputRequests: _input, ...bare } = record;
  return { ...bare, status: 'failed', error: limit.toTaskError() };
}

/** The event a store publishes once `record` is stored: a cancellation, or another end; none otherwise. */
export function eventOf(record: TaskRecord): TaskEvent | undefined {
  if (record.status === 'cancelled') return { kind: 'cancelled', taskId: record.taskId };
  return TERMINAL_STATUSES.includes(record.status) ? { kind: 'settled', taskId: record.taskId } : undefined;
}

/**
 * One page of an owner's task ids (oldest first): the ids after `cursor` (a cursor that is not one of them is refused),
 * `limit` of them read with `read`; the cursor of the next page is the last id of this one.
 */
export async function pageOf(
  ids: readonly string[],
  cursor: string | undefined,
  limit: number,
  read: (taskId: string) => TaskRecord | undefined | Promise<TaskRecord | undefined>,
): Promise<TaskPage> {
  const start = cursor === undefined ? 0 : ids.indexOf(cursor) + 1;
  // Spec 2025-11-25 server/utilities/pagination: an invalid cursor is -32602 (clipped, as the catalogues answer it).
  // A task that expired meanwhile is one.
  if (start === 0 && cursor !== undefined) throw invalidCursor(cursor);
  const page = ids.slice(start, start + limit);
  const tasks = (await Promise.all(page.map(read))).filter((task): task is TaskRecord => task !== undefined);
  return start + limit < ids.length ? { tasks, nextCursor: page[page.length - 1] } : { tasks };
}

/** The record as stored: JSON without the undefined fields. */
export function serialise(record: TaskRecord): string {
  return JSON.stringify(record);
}
