import { McpReflectError } from './base.error';
import { ErrorCode } from './error-codes';

/** JSON-RPC error codes the library answers with (JSON-RPC 2.0 and MCP). */
export const RpcCode = {
  InvalidParams: -32602,
  InternalError: -32603,
  InvalidRequest: -32600,
  /** MCP 2025-11-25 "resource not found"; 2026-07-28 answers -32602 with `data.uri`. */
  ResourceNotFound: -32002,
  /** 2026-07-28: the request needs a client capability the client did not declare (`data.requiredCapabilities`). */
  MissingRequiredClientCapability: -32021,
} as const;

/**
 * A request the server answers with a JSON-RPC error rather than a result (an unknown prompt, a resource
 * that does not exist, invalid prompt arguments). The protocol layer sends `rpcCode`, the message and `data`.
 */
export class RequestError extends McpReflectError {
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(ErrorCode.RequestError, message);
  }
}
