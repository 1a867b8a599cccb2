import type { ClientInfo, RequestChannel } from '../context';
import type { McpAuth } from '../interfaces';
import { visibleTo } from '../pipeline';
import { visibleHeaders } from './peer-headers';
import type { ReadMessage } from './message-reading';
import type { ProtocolApplication } from './protocol-application';
import { CALL_TOOL } from './tool-search';
import { neverAborted } from '../runtime/never-aborted';

/** The `@Scopes()` of the component a JSON-RPC request names (a completion: of the prompt or template it completes). */
export function scopesFor(app: ProtocolApplication, message: ReadMessage): readonly string[] | undefined {
  switch (message.method) {
    case 'tools/call': {
      // A call_tool (tool search) needs what the tool it names needs.
      const target = (message.arguments as { name?: unknown } | undefined)?.name;
      const name = app.toolSearch && message.name === CALL_TOOL ? (typeof target === 'string' ? target : undefined) : message.name;
      return name !== undefined ? app.tools.get(name)?.pipeline.requiredScopes : undefined;
    }
    case 'prompts/get':
      return message.name !== undefined ? app.prompts.get(message.name)?.pipeline.requiredScopes : undefined;
    // Subscribing to a resource needs what reading it needs.
    case 'resources/read':
    case 'resources/subscribe':
      return message.uri !== undefined ? app.resources.pipelineFor(message.uri)?.requiredScopes : undefined;
    case 'completion/complete': {
      // Completing a prompt's or template's arguments needs what using it needs.
      const { ref } = message;
      if (ref?.type === 'ref/prompt') return app.prompts.get(ref.name)?.pipeline.requiredScopes;
      if (ref?.type === 'ref/resource') return app.resources.templates.values().find((t) => t.uriTemplate === ref.uri)?.pipeline.requiredScopes;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Whether some component of the application has `@Scopes()` (memoized per change of each catalogue). */
export function scoped(app: ProtocolApplication): boolean {
  const has = (item: { pipeline: { requiredScopes?: readonly string[] } }) => item.pipeline.requiredScopes !== undefined;
  return (
    app.tools.memo('scoped', () => app.tools.some(has)) ||
    app.prompts.memo('scoped', () => app.prompts.some(has)) ||
    app.resources.resources.memo('scoped', () => app.resources.resources.some(has)) ||
    app.resources.templates.memo('scoped', () => app.resources.templates.some(has))
  );
}

// Visibility: "may this caller see that component?" is the question its list asks (scopes first, then every
// guard with phase 'list'), so a component is visible exactly when the caller's list shows it. Every path that
// names a component answers one the caller may not see as it answers one that does not exist.

/** Whether `name` is a tool this caller may see (enabled, its scopes granted, its guards allowing it in `tools/list`). */
export function toolVisible(app: ProtocolApplication, name: string, open: () => RequestChannel): boolean | Promise<boolean> {
  const tool = app.tools.get(name);
  return tool !== undefined && visibleTo(tool.pipeline, open, 'tools/list', app.openScope);
}

/** Whether the resource or template that serves `uri` is one this caller may see (its `resources/list` or `resources/templates/list`). */
export function resourceVisible(app: ProtocolApplication, uri: string, open: () => RequestChannel): boolean | Promise<boolean> {
  const serving = app.resources.servingOf(uri);
  return serving !== undefined && visibleTo(serving.pipeline, open, serving.listMethod, app.openScope);
}

/** Whether the prompt or template a `completion/complete` names is one this caller may see. */
export function completionTargetVisible(
  app: ProtocolApplication,
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
  open: () => RequestChannel,
): boolean | Promise<boolean> {
  if (ref.type === 'ref/prompt') {
    const prompt = app.prompts.get(ref.name);
    return prompt !== undefined && visibleTo(prompt.pipeline, open, 'prompts/list', app.openScope);
  }
  const template = app.resources.templates.values().find((t) => t.uriTemplate === ref.uri);
  return template !== undefined && visibleTo(template.pipeline, open, 'resources/templates/list', app.openScope);
}

/**
 * Whether a caller may hear that `uri` changed (`notifications/resources/updated` on a 2026-07-28 listen
 * stream, whose filter names URIs unchecked): not when a resource or template serves it, disabled or not, that
 * the caller may not see. A URI nothing serves (one a `@ResourceList()` method returned) is the application's
 * to notify, as before.
 */
export function mayHearOf(app: ProtocolApplication, uri: string, open: () => RequestChannel): boolean | Promise<boolean> {
  const serving = app.resources.servingOf(uri, true);
  return serving === undefined || visibleTo(serving.pipeline, open, serving.listMethod, app.openScope);
}

/**
 * Who is asking, where there is no SDK request to read it from (an HTTP request before dispatch, a listen
 * stream when a change is published, a connection): what guards read as `ctx.auth`, `ctx.headers`, `ctx.client`.
 */
export interface Caller {
  /** The verified identity (a bearer token's over HTTP; the connection's over stdio and in memory). */
  readonly auth?: McpAuth;
  /** The HTTP request headers. */
  readonly headers?: Headers | Readonly<Record<string, string>>;
  /** The request's `_meta`: on 2026-07-28 it carries the client's info, capabilities and protocol version. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The client, where `meta` does not say (a 2025-era session's initialize). */
  readonly client?: ClientInfo;
  readonly requestId?: string | number;
  readonly sessionId?: string;
  readonly protocolVersion?: string;
  readonly signal?: AbortSignal;
}

const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

/**
 * A Context's view of a `Caller`, for guards asked whether the caller may see a component. It sends nothing
 * (there is no request to relate a log or a notification to) and asks the client nothing.
 */
export class CallerChannel implements RequestChannel {
  readonly progressToken = undefined;

  constructor(private readonly caller: Caller) {}

  get signal(): AbortSignal {
    return this.caller.signal ?? neverAborted();
  }
  get requestId(): string | number {
    return this.caller.requestId ?? 0;
  }
  get sessionId(): string | undefined {
    return this.caller.sessionId;
  }
  get auth(): McpAuth | undefined {
    return this.caller.auth;
  }
  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.caller.meta;
  }
  get headers(): Readonly<Record<string, string>> | undefined {
    const { headers } = this.caller;
    return headers && visibleHeaders(headers);
  }
  get client(): ClientInfo {
    const info = this.caller.meta?.[CLIENT_INFO] as { name?: string; version?: string } | undefined;
    const capabilities = this.caller.meta?.[CLIENT_CAPABILITIES] as Record<string, unknown> | undefined;
    if (!info && !capabilities && this.caller.client) return this.caller.client;
    return { name: info?.name, version: info?.version, capabilities: capabilities ?? {} };
  }
  get protocolVersion(): string | undefined {
    return this.caller.protocolVersion ?? (this.caller.meta?.[PROTOCOL_VERSION] as string | undefined);
  }
  notify(): Promise<void> {
    return Promise.resolve();
  }
  log(): Promise<void> {
    return Promise.resolve();
  }
}
