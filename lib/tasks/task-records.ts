import { TERMINAL_STATUSES, type NewTask, type TaskChange, type TaskRecord, type TaskStatus } from './task-store';

/** How every store changes records (pure: the stores differ only in where they keep them). */

/** A new task, `working` from `now` (epoch ms) until its TTL ends. */
export function newRecord(task: NewTask, now: number): TaskRecord {
  const at = new Date(now).toISOString();
  return {
    taskId: task.taskId,
    owner: task.owner,
    tool: task.tool,
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

/** The record as stored: JSON without the undefined fields. */
export function serialise(record: TaskRecord): string {
  return JSON.stringify(record);
}
