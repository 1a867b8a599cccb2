import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ToolTaskOptions, ToolTaskSupport } from '../interfaces';

/** A tool's task support, checked and normalised once at bootstrap. */
export interface TaskSettings {
  readonly support: ToolTaskSupport;
  readonly ttlMs?: number;
  readonly pollIntervalMs?: number;
  readonly start: 'immediately' | 'on-demand';
  /** Whether a run cut short on a durable queue is run again (`retry`, default true). */
  readonly retry: boolean;
}

const SUPPORTS: readonly unknown[] = ['optional', 'required'];
const STARTS: readonly unknown[] = ['immediately', 'on-demand'];

/**
 * `@Tool({ task })` as the runtime reads it, or undefined when the tool is never a task. A bad value fails the
 * bootstrap naming the tool (`owner`) and the fix.
 */
export function taskSettings(option: ToolTaskSupport | ToolTaskOptions | undefined, owner: string): TaskSettings | undefined {
  if (option === undefined) return undefined;
  const options: Partial<ToolTaskOptions> = typeof option === 'string' ? { support: option } : (option ?? {});
  const problem =
    typeof option !== 'string' && (typeof option !== 'object' || option === null)
      ? `${JSON.stringify(option)} is neither 'optional', 'required' nor an object`
      : !SUPPORTS.includes(options.support)
        ? `support ${JSON.stringify(options.support) ?? 'undefined'} is neither 'optional' nor 'required'`
        : !positive(options.ttlMs)
          ? `ttlMs ${JSON.stringify(options.ttlMs)} is not a whole number of milliseconds above 0`
          : !positive(options.pollIntervalMs)
            ? `pollIntervalMs ${JSON.stringify(options.pollIntervalMs)} is not a whole number of milliseconds above 0`
            : options.start !== undefined && !STARTS.includes(options.start)
              ? `start ${JSON.stringify(options.start)} is neither 'immediately' nor 'on-demand'`
              : options.retry !== undefined && typeof options.retry !== 'boolean'
                ? `retry ${JSON.stringify(options.retry)} is neither true nor false`
                : undefined;
  if (problem) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      `Cannot register the ${owner}: its task option is invalid (${problem}).\n` +
        `Fix: write @Tool({ task: 'optional' }) or @Tool({ task: 'required' }), or @Tool({ task: { support: 'optional', ttlMs: 60_000 } }).`,
    );
  }
  return {
    support: options.support!,
    start: options.start ?? 'immediately',
    retry: options.retry ?? true,
    ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
  };
}

function positive(value: unknown): boolean {
  return value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0);
}

/** Options of the task stores that were renamed: the bounds count per client (docs/tasks.md), not per owner. */
const RENAMED: Readonly<Record<string, string>> = { maxTasksPerOwner: 'maxTasksPerClient', maxBytesPerOwner: 'maxBytesPerClient' };

/**
 * Fails the bootstrap on an option of a store that was renamed, naming where it was given (`where(option)`, e.g.
 * `new InMemoryTaskStore({ maxTasksPerOwner })`) and the new name.
 */
export function refuseRenamedOptions(where: (option: string) => string, options: object): void {
  const old = Object.keys(options).find((name) => Object.hasOwn(RENAMED, name));
  if (old === undefined) return;
  throw new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot use ${where(old)}: the option is now ${RENAMED[old]} (the bound counts the tasks of one client: its verified identity, else its remote address).\n` +
      `Fix: write ${RENAMED[old]} instead.`,
  );
}

