import { ProtocolError, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { RequestError, RpcCode } from '../errors';

/** Errors thrown by user code that must reach the client as JSON-RPC errors, not `isError` results. */
export function isProtocolError(error: unknown): boolean {
  return error instanceof ProtocolError;
}

/**
 * The one place where the library's request errors become wire errors. "Resource not found" is -32602 with
 * `data: { uri }`: the 2026-07-28 spec requires it, and SDK v2 sends the same on 2025-era connections (its
 * codec maps -32002 to -32602; clients accept both, spec 2025-11-25 server/resources#error-handling).
 */
export function toWireError(error: unknown): unknown {
  if (!(error instanceof RequestError)) return error;
  if (error.rpcCode === RpcCode.ResourceNotFound) return new ResourceNotFoundError(String(error.data?.uri ?? ''), error.message);
  return new ProtocolError(error.rpcCode, error.message, error.data);
}
