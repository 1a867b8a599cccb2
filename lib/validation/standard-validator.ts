import type { StandardIssue, StandardResult, StandardSchema } from '../interfaces';
import type { ValidationOutcome } from './argument-validator';

/**
 * Validates call arguments with the Standard Schema they were declared with (zod, valibot, arktype: the library
 * itself, `~standard.validate()`), so the advertised schema and the validation come from one source. The value
 * passed on is the library's output: defaults applied, transforms run. Synchronous while the library answers
 * synchronously; a schema with asynchronous rules answers with a promise.
 */
export class StandardValidator {
  /** The library answered with a promise once: the direct path no longer asks it (it would run twice). */
  private async = false;

  constructor(private readonly schema: StandardSchema) {}

  /** The parsed arguments when the library accepts them synchronously, else `undefined` (then `validate()`). */
  accept(input: unknown): Record<string, unknown> | undefined {
    if (this.async) return undefined;
    const result = this.schema['~standard'].validate(input ?? {});
    if (isPromiseLike(result)) {
      this.async = true;
      // Asked again by validate(): this answer is dropped, and its rejection must not go unhandled.
      Promise.resolve(result).catch(() => undefined);
      return undefined;
    }
    return result.issues ? undefined : (result.value as Record<string, unknown>);
  }

  validate(input: unknown): ValidationOutcome | Promise<ValidationOutcome> {
    const result = this.schema['~standard'].validate(input ?? {});
    return isPromiseLike(result) ? Promise.resolve(result).then(outcome) : outcome(result);
  }
}

function outcome(result: StandardResult<unknown>): ValidationOutcome {
  if (!result.issues) return { ok: true, value: result.value as Record<string, unknown> };
  const issues = standardIssues(result.issues);
  return { ok: false, issues: issues.length > 0 ? issues : ['the arguments do not match the input schema'] };
}

/**
 * One line per issue with its path, as for every other source: `days: Too big: expected number to be <=7`. A
 * message that already opens with its path (arktype's `days must be …`) is not given it twice.
 */
export function standardIssues(issues: readonly StandardIssue[], prefix = ''): string[] {
  const lines = issues.map((issue) => {
    const path = toPath(issue.path ?? [], prefix);
    if (!path) return issue.message;
    const message = issue.message.startsWith(`${path} `) ? issue.message.slice(path.length + 1) : issue.message;
    return `${path}: ${message}`;
  });
  return [...new Set(lines)];
}

/** `['items', 0, 'qty']` (or valibot's `{ key }` segments) → `items[0].qty`. */
function toPath(path: readonly (PropertyKey | { readonly key: PropertyKey })[], prefix: string): string {
  let text = prefix;
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    if (typeof key === 'number' || (typeof key === 'string' && /^\d+$/.test(key))) text = `${text}[${String(key)}]`;
    else text = text ? `${text}.${String(key)}` : String(key);
  }
  return text;
}

function isPromiseLike(value: unknown): value is PromiseLike<StandardResult<unknown>> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}
