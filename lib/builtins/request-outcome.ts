import { InvalidArgumentsError, RequestError, RpcCode } from '../errors';
import type { McpComponentKind, McpMethod } from '../interfaces';

/**
 * How a request ended, as the timing log and the spans report it.
 * - `ok`: answered normally.
 * - `error`: the component failed (it threw, or a tool returned an `isError` result).
 * - `invalid`: its arguments were rejected (validation or a pipe).
 * - `denied`: refused before the component ran. Seen from a middleware this is the answer "unknown tool /
 *   prompt, resource not found", which is also how a guard's refusal looks to a caller (by design).
 * - `cancelled`: failed after the request's signal aborted (the client cancelled, or the deadline passed).
 */
export type RequestOutcome = 'ok' | 'error' | 'invalid' | 'denied' | 'cancelled';

/** What a middleware can tell of the component a request targets, from its params alone. */
export interface RequestTarget {
  readonly kind?: McpComponentKind;
  readonly name?: string;
  /** The URI of a `resources/read`. */
  readonly uri?: string;
  /** The arguments as the client sent them. */
  readonly args?: unknown;
}

const MAX_NAME = 256;

/** Names a client sent (a tool name, a URI) are cut at 256 characters before they reach a log or a span. */
export function boundedText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.length <= MAX_NAME ? value : `${value.slice(0, MAX_NAME)}…`;
}

/** True for a tool result that reports an error (`ToolResult` with `isError: true`). */
export function isErrorResult(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { isError?: unknown }).isError === true &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

/** The outcome of a request that threw `error` (inside the pipeline, or out of a middleware's `next()`). */
export function outcomeOfError(error: unknown, signal: AbortSignal | undefined): RequestOutcome {
  if (error instanceof InvalidArgumentsError) return 'invalid';
  const rpc = error instanceof RequestError ? error.rpcCode : (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  if (rpc === RpcCode.ResourceNotFound) return 'denied';
  if (rpc === RpcCode.InvalidParams) return /^(Unknown |Resource not found)/.test(message) ? 'denied' : 'invalid';
  return signal?.aborted ? 'cancelled' : 'error';
}

/** The outcome of a wire answer a middleware saw: a `tools/call` result may be an `isError` one. */
export function outcomeOfAnswer(method: McpMethod, answer: unknown): RequestOutcome {
  if (method !== 'tools/call' || !isErrorResult(answer)) return 'ok';
  const first = (answer as { content: { text?: unknown }[] }).content[0]?.text;
  return typeof first === 'string' && first.startsWith('Invalid arguments for tool ') ? 'invalid' : 'error';
}

/** The class name of what was thrown (never its message, which may carry argument values). */
export function errorName(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name;
  return typeof error;
}

/** The component a request targets, read from its params (for middleware, which runs before any lookup). */
export function targetOf(method: McpMethod, params: unknown): RequestTarget {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, any>;
  switch (method) {
    case 'tools/call':
      return { kind: 'tool', name: boundedText(p.name), args: p.arguments };
    case 'prompts/get':
      return { kind: 'prompt', name: boundedText(p.name), args: p.arguments };
    case 'resources/read':
    case 'skills/get':
    case 'resources/directory/read':
      return { uri: boundedText(p.uri) };
    case 'completion/complete': {
      const target = p.ref?.type === 'ref/prompt' ? p.ref?.name : p.ref?.uri;
      return { kind: 'completion', name: boundedText(`${String(target)}#${String(p.argument?.name)}`), args: p.argument };
    }
    default:
      return {};
  }
}
