import { McpReflectError } from './base.error';
import { ErrorCode } from './error-codes';

/**
 * Throw from a tool to return an `isError` result whose text is this message, verbatim.
 * Use it for failures the model should read and act on ("City not found: try a larger nearby city").
 *
 * @example
 * throw new ToolError(`No forecast for ${city}`);
 */
export class ToolError extends McpReflectError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorCode.ToolError, message, options);
  }
}
