import { InputRequiredSignal } from '../context';
import { RequestError, RpcCode, ToolError } from '../errors';

/** Receives the full detail of failures that clients only see masked. Defaults to stderr. */
export interface ServerLogger {
  error(message: string, error?: unknown): void;
  warn(message: string): void;
}

/** How calls report failures: shared by tools, resources, prompts and completions. */
export interface CallPolicy {
  /** Hide the message of unexpected errors from clients (default true). */
  readonly maskErrorDetails: boolean;
  readonly logger: ServerLogger;
  /** Errors that must reach the client as JSON-RPC errors (the SDK's protocol errors); rethrown untouched. */
  readonly isProtocolError: (error: unknown) => boolean;
  /**
   * Errors the host made for clients to read (a NestJS host: the `HttpException` family), with their message
   * and, for resources and prompts, the JSON-RPC code; undefined for any other error (masked as usual).
   */
  readonly clientFacing?: (error: unknown) => ClientFacingError | undefined;
}

/** What a client is told of an error its host made for clients. */
export interface ClientFacingError {
  readonly message: string;
  /** The JSON-RPC code for resources and prompts (tools answer `isError` results). */
  readonly code: number;
}

/**
 * Maps what a resource, prompt or completion method threw to the JSON-RPC error the client gets:
 * `ToolError` keeps its message, protocol and request errors pass through, anything else is logged and
 * masked (unless `maskErrorDetails` is off).
 */
export function toRequestError(error: unknown, what: string, where: string, policy: CallPolicy): unknown {
  if (error instanceof RequestError || error instanceof InputRequiredSignal || policy.isProtocolError(error)) return error;
  if (error instanceof ToolError) return new RequestError(RpcCode.InternalError, error.message);
  const facing = policy.clientFacing?.(error);
  if (facing) return new RequestError(facing.code, facing.message);
  policy.logger.error(`${capitalize(what)} (${where}) threw:`, error);
  const detail = policy.maskErrorDetails ? '' : `: ${error instanceof Error ? error.message : String(error)}`;
  return new RequestError(RpcCode.InternalError, `Error ${what}${detail}`);
}

/**
 * The text of the `isError` result a tool call gets for what was thrown on its way (by the tool, or by a
 * middleware around it): a `ToolError`'s message verbatim; anything else logged in full and masked (unless
 * `maskErrorDetails` is off). The one place this decision is made.
 */
export function toolErrorText(error: unknown, tool: string, where: string, policy: CallPolicy): string {
  if (error instanceof ToolError) return error.message;
  const facing = policy.clientFacing?.(error);
  if (facing) return facing.message;
  policy.logger.error(`Tool '${tool}' (${where}) threw:`, error);
  if (policy.maskErrorDetails) return `Error calling tool '${tool}'`;
  return `Error calling tool '${tool}': ${error instanceof Error ? error.message : String(error)}`;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
