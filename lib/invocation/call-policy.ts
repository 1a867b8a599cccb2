import { InputRequiredSignal } from '../context';
import { RequestError, RpcCode, ToolError } from '../errors';
import { capitalize } from '../errors/describe';
import type { ServerLogger } from '../interfaces';


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

/** Where a failure happened, as its answer names it. */
export type FailureSite =
  /** A tool call (the tool, or a middleware or filter around it): answered with an `isError` result. */
  | { readonly kind: 'tool'; readonly name: string; readonly where: string }
  /** Any other request (a resource read, a prompt, a completion, a list, a task method): answered with a JSON-RPC error. */
  | { readonly kind: 'request'; readonly what: string; readonly where: string };

/** The answer to a failure: a tool result to send, or the error to throw (a JSON-RPC error, or a signal the protocol layer answers). */
export type FailureAnswer = { readonly result: { content: [{ type: 'text'; text: string }]; isError: true } } | { readonly error: unknown };

/**
 * The one place that decides what a client is told of a failure, whatever failed (lib/invocation/call-policy.ts):
 * - a request for input (`InputRequiredSignal`), a `RequestError` and the SDK's protocol errors are the caller's
 *   answer as they are: thrown on, for the protocol layer;
 * - a `ToolError` keeps its message: a tool's `isError` result, else a -32603 error with that message;
 * - an error the host made for clients (`clientFacing`: Nest's `HttpException`) keeps its message (and, outside
 *   tools, its JSON-RPC code);
 * - anything else is logged in full and masked (unless `maskErrorDetails` is off): nothing internal leaks.
 * Exception filters run before (the pipeline's `recover`); what they rethrow is decided here too. The wire
 * encoding of a `RequestError` (the SDK's error classes) is the adapter's (server/error-mapping.ts).
 */
export function answerFailure(error: unknown, site: FailureSite, policy: CallPolicy): FailureAnswer {
  if (error instanceof InputRequiredSignal || error instanceof RequestError || policy.isProtocolError(error)) return { error };
  const facing = error instanceof ToolError ? { message: error.message, code: RpcCode.InternalError } : policy.clientFacing?.(error);
  if (site.kind === 'tool') {
    const text = facing?.message ?? masked(error, `calling tool '${site.name}'`, `Tool '${site.name}' (${site.where}) threw:`, policy);
    return { result: { content: [{ type: 'text', text }], isError: true } };
  }
  if (facing) return { error: new RequestError(facing.code, facing.message) };
  return { error: new RequestError(RpcCode.InternalError, masked(error, site.what, `${capitalize(site.what)} (${site.where}) threw:`, policy)) };
}

/** Logs `error` in full; the text the client gets: `Error <what>`, with the error's message unless details are masked. */
function masked(error: unknown, what: string, logged: string, policy: CallPolicy): string {
  policy.logger.error(logged, error);
  return policy.maskErrorDetails ? `Error ${what}` : `Error ${what}: ${error instanceof Error ? error.message : String(error)}`;
}

/** The error a request other than a tool call throws for `error` ({@link answerFailure}). */
export function requestFailure(error: unknown, what: string, where: string, policy: CallPolicy): unknown {
  return (answerFailure(error, { kind: 'request', what, where }, policy) as { error: unknown }).error;
}
