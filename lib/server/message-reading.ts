import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

/**
 * One JSON-RPC message of a request body, read once into what the checks made before dispatch need (the auth
 * gate's step-up, the `Mcp-Param-*` header check, listen admission, the caller of a listen stream): each reads
 * these fields, none casts the body again. What is not a well-formed field is left out (the SDK answers the
 * message itself).
 */
export interface ReadMessage {
  readonly method?: string;
  /** The request id (a notification has none). */
  readonly id?: string | number;
  readonly params?: Readonly<Record<string, unknown>>;
  /** `params._meta`. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The revision the message claims in `_meta` (2026-07-28's per-request envelope), if any. */
  readonly protocolVersion?: string;
  /** `tools/call` and `prompts/get`: the name it calls. */
  readonly name?: string;
  /** `tools/call`: its arguments, as sent. */
  readonly arguments?: unknown;
  /** `resources/read`, `resources/subscribe`, `resources/unsubscribe`: the URI. */
  readonly uri?: string;
  /** `completion/complete`: what it completes. */
  readonly ref?: { readonly type: 'ref/prompt'; readonly name: string } | { readonly type: 'ref/resource'; readonly uri: string };
}

/** A request body read once: its messages (one, or a batch's), and the one when it is not a batch. */
export interface ReadBody {
  readonly messages: readonly ReadMessage[];
  /** The message of a body that is one message (not a batch). */
  readonly single?: ReadMessage;
}

const NOTHING: ReadBody = { messages: [] };

/** Reads a parsed request body (one message or a batch) once. */
export function readBody(json: unknown): ReadBody {
  if (json === undefined) return NOTHING;
  if (Array.isArray(json)) return { messages: json.map(readMessage) };
  const single = readMessage(json);
  return { messages: [single], single };
}

function readMessage(json: unknown): ReadMessage {
  if (!isRecord(json)) return {};
  const { method, id } = json;
  const params = isRecord(json.params) ? json.params : undefined;
  const meta = params && isRecord(params._meta) ? params._meta : undefined;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  const read: { -readonly [K in keyof ReadMessage]: ReadMessage[K] } = {};
  if (typeof method === 'string') read.method = method;
  if (typeof id === 'string' || typeof id === 'number') read.id = id;
  if (params) read.params = params;
  if (meta) read.meta = meta;
  if (typeof version === 'string') read.protocolVersion = version;
  if (!params) return read;
  if ((method === 'tools/call' || method === 'prompts/get') && typeof params.name === 'string') read.name = params.name;
  if (method === 'tools/call' && 'arguments' in params) read.arguments = params.arguments;
  if (typeof method === 'string' && method.startsWith('resources/') && typeof params.uri === 'string') read.uri = params.uri;
  if (method === 'completion/complete' && isRecord(params.ref)) {
    const { type, name, uri } = params.ref;
    if (type === 'ref/prompt' && typeof name === 'string') read.ref = { type, name };
    if (type === 'ref/resource' && typeof uri === 'string') read.ref = { type, uri };
  }
  return read;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
