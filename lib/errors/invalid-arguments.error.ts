import { McpReflectError } from './base.error';
import { ErrorCode } from './error-codes';
import { ToolError } from './tool.error';

/**
 * The arguments of a call are not acceptable: thrown by validation, and by pipes that reject a value. A tool
 * answers it with the `isError` result `Invalid arguments for tool <name>: <issues>`; resources, prompts
 * and completions with the JSON-RPC error -32602.
 *
 * @example
 * throw new InvalidArgumentsError(['city: must not be blank']);
 */
export class InvalidArgumentsError extends McpReflectError {
  constructor(readonly issues: readonly string[]) {
    super(ErrorCode.InvalidArguments, issues.join('; '));
  }
}

/** A call ran past its deadline (`@Tool({ timeout })`); the caller reads the message. */
export class TimeoutError extends ToolError {
  override readonly code: string = ErrorCode.Timeout;

  constructor(what: string, readonly ms: number) {
    super(`${what} timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}
