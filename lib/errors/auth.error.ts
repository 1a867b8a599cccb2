import { McpReflectError } from './base.error';
import { ErrorCode } from './error-codes';
import { ToolError } from './tool.error';

/**
 * An access token that cannot be accepted. Its message is what the client reads (`error_description` of a 401
 * `invalid_token`): it says what is wrong with the token, never how the server is built.
 */
export class InvalidTokenError extends McpReflectError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorCode.InvalidToken, message, options);
  }
}

/**
 * A call to a component whose scopes (`@Scopes()`) the caller's token lacks, answered in MCP (an `isError` tool
 * result, or a JSON-RPC error) where no HTTP 403 step-up challenge can be sent: stdio, in memory, or
 * `auth.insufficientScope: 'error'`.
 */
export class InsufficientScopeError extends ToolError {
  override readonly code: string = ErrorCode.InsufficientScope;

  constructor(
    readonly what: string,
    readonly scopes: readonly string[],
    readonly authenticated: boolean,
  ) {
    super(
      authenticated
        ? `Insufficient scope: the ${what} needs the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(' ')}, which the access token does not grant. Ask the authorization server for ${scopes.length > 1 ? 'them' : 'it'}.`
        : `Authentication required: the ${what} needs the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(' ')}, and this connection carries no identity.`,
    );
  }
}

/**
 * Tokens cannot be verified right now (the authorization server's keys or introspection endpoint are out of
 * reach). The client is answered 503 with Retry-After, so it retries rather than throwing its token away, and
 * the cause is logged. Throw it from your own `auth.verify` when your backend is down.
 */
export class AuthUnavailableError extends McpReflectError {
  constructor(message: string, cause?: unknown) {
    super(ErrorCode.AuthUnavailable, message, { cause });
  }
}
