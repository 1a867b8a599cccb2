import type { ContextId } from '@nestjs/core';
import type { Context, McpAuth } from '../context';
import type { RequestHandle } from '../invocation';

/**
 * What `@Inject(REQUEST)` gives a request-scoped provider during an MCP call: the call's Context (progress,
 * logging, cancellation, elicitation, sampling), and the caller's identity and session, read from it.
 *
 * @example
 * @Injectable({ scope: Scope.REQUEST })
 * class AuditLog {
 *   constructor(@Inject(REQUEST) private readonly request: McpRequest) {}
 *   who() { return this.request.auth?.subject ?? 'anonymous'; }
 * }
 */
export interface McpRequest {
  /** The kind of request, so a provider shared with controllers can tell an MCP request from an HTTP one. */
  readonly type: 'mcp';
  /** The Context of the MCP request. */
  readonly context: Context;
  /** The verified identity of the caller (a bearer token, or the `auth` of stdio / in-memory connections). */
  readonly auth?: McpAuth;
  /** The MCP session (2025-11-25 sessions), when there is one. */
  readonly sessionId?: string;
}

/** One MCP request's Nest context id: request-scoped providers and enhancers are built once per handle. */
export class NestRequestHandle implements RequestHandle {
  private readonly memos = new Map<object, Promise<unknown>>();

  constructor(
    readonly contextId: ContextId,
    readonly request: McpRequest,
  ) {}

  run<T>(fn: () => T): T {
    return fn();
  }

  /** What `make` gives for `key` in this request, made once. */
  memo<T>(key: object, make: () => Promise<T>): Promise<T> {
    let found = this.memos.get(key) as Promise<T> | undefined;
    if (!found) this.memos.set(key, (found = make()));
    return found;
  }
}
