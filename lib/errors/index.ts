export { McpReflectError } from './base.error';
export { ErrorCode } from './error-codes';
export { BootstrapError, BootstrapErrorCode, wholeOption } from './bootstrap.error';
export { ToolError } from './tool.error';
export { RequestError, RpcCode } from './request.error';
export { InvalidArgumentsError, TimeoutError } from './invalid-arguments.error';
export { InvalidTokenError, InsufficientScopeError, AuthUnavailableError } from './auth.error';
