import { ErrorCode, ToolError } from '../errors';
import { rateLimitExceededMessage } from './builtins.messages';

/**
 * A caller used up its allowance ({@link RateLimitGuard}). A tool answers it as an `isError` result with
 * this message; resources and prompts with a JSON-RPC error carrying it.
 *
 * @example
 * // "Rate limit exceeded for tool 'forecast': try again in 2 s."
 * throw new RateLimitError('tool', 'forecast', 1500);
 */
export class RateLimitError extends ToolError {
  override readonly code: string = ErrorCode.RateLimited;

  constructor(
    kind: string,
    name: string,
    /** Milliseconds until the next call would be allowed. */
    readonly retryAfterMs: number,
  ) {
    super(rateLimitExceededMessage(kind, name, retryAfterMs));
  }
}
