import { createHash } from 'node:crypto';
import type { JsonSchema, PrecompiledValidators } from '../interfaces';

/** One validator an application compiles, as the `validators` command records it. */
export interface ValidatorUse {
  readonly key: string;
  readonly schema: JsonSchema;
  readonly dialect: '2020' | '07';
  readonly use: 'input' | 'output';
  readonly allErrors: boolean;
  /** Unknown properties are dropped (lenient input validation). */
  readonly removeAdditional: boolean;
}

/** Where a SchemaCompiler takes validators from, and whom it tells what it compiles. */
export interface ValidatorSource {
  readonly precompiled?: PrecompiledValidators;
  readonly record?: (use: ValidatorUse) => void;
  /** `'onFirstUse'`: each validator is compiled by its first call, not at bootstrap (see McpFactoryOptions.compileValidators). */
  readonly compile?: 'atStart' | 'onFirstUse';
}

/** The key of one validator: a digest of everything that decides its code. */
export function validatorKey(dialect: string, use: string, allErrors: boolean, removeAdditional: boolean, json: string): string {
  return createHash('sha256').update(`${dialect}|${use}|${allErrors}|${removeAdditional}|${json}`).digest('base64url').slice(0, 32);
}

/** What a runtime without code generation (Cloudflare Workers) throws when ajv compiles. */
export function isCodeGenerationRefused(error: unknown): boolean {
  return error instanceof Error && /code generation from strings disallowed|unsafe-eval|EvalError/i.test(`${error.name} ${error.message}`);
}

/** Whether this runtime compiles code from strings (`new Function`): tried once, on first need, never at import. */
let codeGeneration: boolean | undefined;
export function codeGenerationAllowed(): boolean {
  if (codeGeneration === undefined) {
    try {
      codeGeneration = new Function('return true')() === true;
    } catch {
      codeGeneration = false;
    }
  }
  return codeGeneration;
}
