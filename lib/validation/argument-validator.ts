import type { JsonSchema } from '../interfaces';
import type { SchemaCompiler, ValidateFunction } from './ajv-factory';
import { compileCoercer, type Coercer } from './coercion';
import { formatIssues } from './issue-format';

export type ValidationOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly issues: readonly string[] };

/**
 * What checks a call's arguments: the validator compiled from a JSON Schema, or a Standard Schema's library
 * (lib/validation/standard-validator.ts). `accept` is the direct path's synchronous check; `validate` coerces or
 * names the issues, and answers with a promise only when the schema's library does.
 */
export interface InputValidator {
  accept(input: unknown): Record<string, unknown> | undefined;
  validate(input: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}

/**
 * Validates call arguments against exactly the schema that `tools/list` advertises. Compiled once at
 * bootstrap; per call: (lenient) coercion, one compiled check, and only on failure a second pass that names
 * every failed field.
 */
export class ArgumentValidator implements InputValidator {
  private readonly check: ValidateFunction;
  private readonly coerce: Coercer | undefined;
  private reporting?: ValidateFunction;

  /** `generated`: the library built the schema alone (see SchemaCompiler.compile). */
  constructor(
    private readonly compiler: SchemaCompiler,
    private readonly schema: JsonSchema,
    generated = false,
  ) {
    this.check = compiler.compile(schema, 'input', generated);
    this.coerce = compiler.lenient ? compileCoercer(schema, compiler.integers) : undefined;
  }

  /**
   * The arguments themselves when they pass the compiled check as sent (the common case), else `undefined`:
   * then `validate()` coerces or names the issues. Allocates nothing.
   */
  accept(input: unknown): Record<string, unknown> | undefined {
    const args = input ?? {};
    return this.check(args) ? (args as Record<string, unknown>) : undefined;
  }

  validate(input: unknown): ValidationOutcome {
    // Valid input (the common case) needs no coercion: coercion only rewrites values that do not match.
    const accepted = this.accept(input);
    if (accepted) return { ok: true, value: accepted };
    let args: unknown = input ?? {};
    if (this.coerce) {
      args = this.coerce(args);
      if (this.check(args)) return { ok: true, value: args as Record<string, unknown> };
    }
    this.reporting ??= this.compiler.compileReporting(this.schema);
    this.reporting(args);
    const issues = formatIssues(this.reporting.errors ?? this.check.errors ?? []);
    return { ok: false, issues: issues.length > 0 ? issues : ['the arguments do not match the input schema'] };
  }
}
