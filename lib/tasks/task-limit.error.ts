import { RequestError, RpcCode } from '../errors';
import type { TaskError } from './task-store';

/**
 * A task store is full: the client holds as many live tasks as it may, the store holds as many as it may, or
 * a result would not fit its byte budget. Answered with a JSON-RPC error (-32600) that says what to do.
 */
export class TaskLimitError extends RequestError {
  static perClient(max: number): TaskLimitError {
    return new TaskLimitError(
      `Cannot start another task: this client already holds ${max} live tasks, the most it may. ` +
        `Cancel one with tasks/cancel (a cancelled task gives its place to the next one), or wait for one to expire (a task counts until its TTL ends).`,
      { limit: 'maxTasksPerClient', max },
    );
  }

  static total(max: number): TaskLimitError {
    return new TaskLimitError(`Cannot start another task: the server holds ${max} live tasks, the most it may. Try again later.`, {
      limit: 'maxTasks',
      max,
    });
  }

  static queued(max: number): TaskLimitError {
    return new TaskLimitError(`Cannot start another task: ${max} tasks already wait in the queue, the most it may hold. Try again later.`, {
      limit: 'maxQueued',
      max,
    });
  }

  static bytes(max: number): TaskLimitError {
    return new TaskLimitError(`The task store is full (${max} bytes): the task's result or input could not be kept.`, { limit: 'maxBytes', max });
  }

  static bytesPerClient(max: number): TaskLimitError {
    return new TaskLimitError(
      `This client's tasks already hold ${max} bytes, the most they may: the task's result or input could not be kept. ` +
        `Let some tasks expire, or ask for smaller results.`,
      { limit: 'maxBytesPerClient', max },
    );
  }

  constructor(message: string, data: Record<string, unknown>) {
    super(RpcCode.InvalidRequest, message, data);
  }

  /** The error as a failed task carries it. */
  toTaskError(): TaskError {
    return { code: this.rpcCode, message: this.message, data: this.data };
  }
}
