import { InvalidArgumentsError, RequestError, RpcCode } from '../errors';
import type { McpSessionEnd, McpTransportKind } from '../interfaces';

/**
 * OpenTelemetry's semantic conventions for MCP servers (GenAI semantic conventions, docs/gen-ai/mcp.md, status
 * Development): the names, attributes and error types {@link OpenTelemetryInterceptor} records.
 */

/** The histograms of the convention (unit `s`). */
export const OPERATION_DURATION = 'mcp.server.operation.duration';
export const SESSION_DURATION = 'mcp.server.session.duration';

/** The bucket boundaries the convention advises for both histograms (seconds). */
export const DURATION_BUCKETS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** `error.type` of a `tools/call` answered with an `isError` result. */
export const TOOL_ERROR = 'tool_error';

export type Attributes = Record<string, string>;

/** What is known of one request, for its span and its duration. */
export interface RequestFacts {
  readonly method: string;
  readonly toolName?: string;
  readonly promptName?: string;
  readonly uri?: string;
  readonly requestId?: string | number;
  readonly sessionId?: string;
  readonly protocolVersion?: string;
  readonly transport?: McpTransportKind;
}

/** How a request failed, in the convention's terms. */
export interface FailureType {
  /** `error.type`: `tool_error`, the JSON-RPC code (`-32602`), else the exception's class name. */
  readonly type: string;
  /** `rpc.response.status_code`: the JSON-RPC error code, when the answer is a JSON-RPC error. */
  readonly rpcCode?: string;
}

/**
 * `{mcp.method.name} {target}`: the target is the tool or prompt name. Resource URIs stay out of the name
 * (unbounded cardinality; the convention makes them opt-in): they are the `mcp.resource.uri` attribute.
 */
export function spanNameOf(facts: RequestFacts): string {
  const target = facts.toolName ?? facts.promptName;
  return target !== undefined ? `${facts.method} ${target}` : facts.method;
}

/** `network.transport` (`pipe` for stdio, `tcp` for HTTP) and, over HTTP, `network.protocol.name`. */
export function transportAttributes(transport: McpTransportKind | undefined): Attributes {
  if (transport === 'http') return { 'network.transport': 'tcp', 'network.protocol.name': 'http' };
  if (transport === 'stdio') return { 'network.transport': 'pipe' };
  return {};
}

/** The attributes of `mcp.server.operation.duration` (low cardinality: no ids, no URI). */
export function metricAttributesOf(facts: RequestFacts): Attributes {
  const attributes: Attributes = { 'mcp.method.name': facts.method };
  if (facts.method === 'tools/call') attributes['gen_ai.operation.name'] = 'execute_tool';
  if (facts.toolName !== undefined) attributes['gen_ai.tool.name'] = facts.toolName;
  if (facts.promptName !== undefined) attributes['gen_ai.prompt.name'] = facts.promptName;
  if (facts.protocolVersion !== undefined) attributes['mcp.protocol.version'] = facts.protocolVersion;
  return { ...attributes, ...transportAttributes(facts.transport) };
}

/** The attributes of the server span: the metric's, plus the request id, the session id and the resource URI. */
export function spanAttributesOf(facts: RequestFacts): Attributes {
  const attributes = metricAttributesOf(facts);
  if (facts.requestId !== undefined && facts.requestId !== null) attributes['jsonrpc.request.id'] = String(facts.requestId);
  if (facts.sessionId !== undefined) attributes['mcp.session.id'] = facts.sessionId;
  if (facts.uri !== undefined) attributes['mcp.resource.uri'] = facts.uri;
  return attributes;
}

/** The attributes of `mcp.server.session.duration`. */
export function sessionAttributesOf(session: McpSessionEnd): Attributes {
  return {
    ...(session.protocolVersion !== undefined ? { 'mcp.protocol.version': session.protocolVersion } : {}),
    ...transportAttributes(session.transport),
  };
}

/**
 * How a thrown error is reported: its JSON-RPC code when it carries one (a `RequestError`, the SDK's protocol
 * errors, invalid arguments outside `tools/call`: `-32602`); invalid arguments of a tool are answered with an
 * `isError` result (`tool_error`); anything else by its class name (`Error`, `ToolError`, `TimeoutError`).
 */
export function failureOf(error: unknown, method: string): FailureType {
  if (error instanceof InvalidArgumentsError) return method === 'tools/call' ? { type: TOOL_ERROR } : rpc(RpcCode.InvalidParams);
  if (error instanceof RequestError) return rpc(error.rpcCode);
  // The SDK's protocol errors carry their JSON-RPC code; MCP's codes are negative (a `code: 404` is not one).
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number' && Number.isInteger(code) && code < 0) return rpc(code);
  if (error instanceof Error) return { type: error.name || error.constructor.name };
  return { type: '_OTHER' };
}

function rpc(code: number): FailureType {
  return { type: String(code), rpcCode: String(code) };
}
