import type { AuthInfo } from '@modelcontextprotocol/server';
import { fromAuthInfo } from '../server/auth-info';
import { CallerBus } from '../server/listen-bus';
import { paramHeaderMap, type ParamHeader } from '../server/param-headers';
import type { ReadMessage } from '../server/message-reading';
import type { ProtocolApplication } from '../server/protocol-application';
import type { ServerFactory } from '../server/server-factory';
import type { ServerHub } from '../server/server-hub';
import type { TaskRuntime } from '../server/tasks/task-runtime';
import { CallerChannel, mayHearOf, toolVisible, type Caller } from '../server/visibility';

/**
 * What the HTTP transport needs of an application (built by lib/host/compose.ts, eagerly and cheaply; the
 * transport that reads it loads on first use): the application (whose `@Scopes()` the auth gate reads), the
 * server factory, the hub that reaches every live session, the tasks a session owns, and the checks HTTP makes
 * before dispatch.
 */
export class HttpServing {
  readonly hub: ServerHub;

  constructor(
    readonly app: ProtocolApplication,
    /** Makes the SDK server of each session (2025-11-25) or request (2026-07-28). */
    readonly servers: ServerFactory,
    private readonly tasks: TaskRuntime,
  ) {
    this.hub = app.hub;
  }

  /**
   * Whether `name` is a tool `caller` may see: enabled, its `@Scopes()` granted, and every guard allowing it as
   * `tools/list` asks them (`phase: 'list'`, so exactly when the caller's list shows it). Nothing of the tool
   * runs. False for a tool that does not exist too. A check made before dispatch (the `Mcp-Param-*` header
   * check) lets the call of a tool that is not visible go on: the tools/call handler answers it as it answers
   * that caller (unknown tool, the scope refusal), and never runs it with headers that disagree.
   */
  async toolVisible(name: string, caller: Caller = {}): Promise<boolean> {
    return toolVisible(this.app, name, () => new CallerChannel(caller));
  }

  /**
   * The `Caller` of an HTTP request: the identity of `authInfo`, the headers and signal of `request`, and the
   * `id` and `_meta` of the one JSON-RPC message the body carries, as read once (server/message-reading.ts).
   */
  callerOf(request: Request, authInfo?: AuthInfo, message?: ReadMessage): Caller {
    return {
      ...(authInfo ? { auth: fromAuthInfo(authInfo) } : {}),
      headers: request.headers,
      signal: request.signal,
      ...(message?.meta ? { meta: message.meta as Record<string, unknown> } : {}),
      ...(message?.id !== undefined ? { requestId: message.id } : {}),
    };
  }

  /**
   * A change bus for the SDK's `subscriptions/listen` streams (`createMcpHandler({ bus })`) that delivers
   * `resources/updated` only to streams whose caller may see the resource; serve each request inside
   * `bus.as(caller, …)`. One per handler.
   */
  listenBus(onerror?: (error: Error) => void): CallerBus {
    return new CallerBus((uri, caller) => mayHearOf(this.app, uri, () => new CallerChannel(caller)), onerror);
  }

  /** Tool name → its arguments mirrored into `Mcp-Param-*` headers (SEP-2243), computed once per change of the tools. */
  paramHeaders(): ReadonlyMap<string, readonly ParamHeader[]> {
    return paramHeaderMap(this.app, this.app.logger);
  }

  /**
   * A 2025-11-25 session ended for good (DELETE, handshake timeout, an eviction no other instance can take
   * up): the tasks it owns are dropped and their runs aborted. Never rejects (a failing store is logged).
   */
  sessionEnded(sessionId: string): Promise<void> {
    return this.tasks.sessionEnded(sessionId);
  }
}
