import type { StandardIssue, StandardResult, StandardSchema } from '../interfaces';
import type { InputValidator, ValidationOutcome } from './argument-validator';
import { cappedIssues } from './issue-format';

/**
 * Validates call arguments with the Standard Schema they were declared with (zod, valibot, arktype: the library
 * itself, `~standard.validate()`), so the advertised schema and the validation come from one source. The value
 * passed on is the library's output: defaults applied, transforms run. Synchronous while the library answers
 * synchronously; a schema with asynchronous rules answers with a promise.
 */
export class StandardValidator implements InputValidator {
  /** The library answered with a promise once: the direct path no longer asks it (it would run twice). */
  private async = false;
  /** The library's answer to arguments `accept()` refused, for `validate()` to name their issues without asking again. */
  private readonly refused = new WeakMap<object, StandardResult<unknown>>();

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
    if (!result.issues) return result.value as Record<string, unknown>;
    if (typeof input === 'object' && input !== null) this.refused.set(input, result);
    return undefined;
  }

  validate(input: unknown): ValidationOutcome | Promise<ValidationOutcome> {
    const known = typeof input === 'object' && input !== null ? this.refused.get(input) : undefined;
    if (known) return outcome(known);
    const result = this.schema['~standard'].validate(input ?? {});
    return isPromiseLike(result) ? Promise.resolve(result).then(outcome) : outcome(result);
  }
}

/** A `@Param({ schema })` given a Standard Schema: the argument it checks and parses. */
export interface StandardParam {
  readonly name: string;
  readonly schema: StandardSchema;
}

/**
 * The arguments of a method some of whose `@Param()`s have a Standard Schema: the JSON Schema validator of the
 * whole object first (the other parameters, required and unknown arguments, and those arguments' JSON Schema),
 * then each such argument's library, which has the last word (refinements JSON Schema cannot say) and whose
 * output replaces the argument (defaults applied, transforms run).
 */
export class StandardParamsValidator implements InputValidator {
  private async = false;

  constructor(
    private readonly json: InputValidator,
    private readonly params: readonly StandardParam[],
  ) {}

  accept(input: unknown): Record<string, unknown> | undefined {
    if (this.async) return undefined;
    const accepted = this.json.accept(input);
    if (!accepted) return undefined;
    const parsed = this.parse(accepted);
    if (isPromiseLike(parsed)) {
      this.async = true;
      Promise.resolve(parsed).catch(() => undefined);
      return undefined;
    }
    return parsed.ok ? parsed.value : undefined;
  }

  validate(input: unknown): ValidationOutcome | Promise<ValidationOutcome> {
    const checked = this.json.validate(input);
    if (isPromiseLike(checked)) return Promise.resolve(checked).then((settled) => (settled.ok ? this.parse(settled.value) : settled));
    return checked.ok ? this.parse(checked.value) : checked;
  }

  private parse(args: Record<string, unknown>): ValidationOutcome | Promise<ValidationOutcome> {
    const results = this.params.map((param) => param.schema['~standard'].validate(args[param.name]));
    if (results.some(isPromiseLike)) return Promise.all(results).then((settled) => this.combine(args, settled));
    return this.combine(args, results as StandardResult<unknown>[]);
  }

  private combine(args: Record<string, unknown>, results: readonly StandardResult<unknown>[]): ValidationOutcome {
    const value = { ...args };
    const issues: string[] = [];
    results.forEach((result, i) => {
      const { name } = this.params[i];
      if (result.issues) issues.push(...standardIssues(result.issues, name));
      else if (result.value !== undefined || name in value) value[name] = result.value;
    });
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
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
  return cappedIssues([...new Set(lines)]);
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

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}
