import { randomUUID } from 'node:crypto';

/**
 * Header names random per process, so that no client can send them; made on first use, not at load (Cloudflare
 * Workers allow no random values in the global scope).
 */
let names: { readonly peer: string; readonly client: string; readonly checked: string } | undefined;
const made = () =>
  (names ??= { peer: `x-mcp-reflect-peer-${randomUUID()}`, client: `x-mcp-reflect-client-${randomUUID()}`, checked: `x-mcp-reflect-checked-${randomUUID()}` });

/** The header through which an adapter hands the endpoint the connection's remote address. */
export const peerHeader = (): string => made().peer;

/**
 * The header through which the endpoint tells the handlers who the client is, as the per-client bounds count it
 * (`clientKey`'s answer, else the remote address): the task bounds count by the same key.
 */
export const clientHeader = (): string => made().client;

/**
 * The header through which the endpoint tells the tools/call handler the outcome of the `Mcp-Param-*` check it
 * made before dispatch, so that the check runs once per message: {@link PARAM_HEADERS_AGREE} or
 * {@link PARAM_HEADERS_HIDDEN}; absent when the endpoint did not make it (the handler makes it then).
 */
export const checkedHeader = (): string => made().checked;
/** The headers agree with the arguments (or the tool mirrors none). */
export const PARAM_HEADERS_AGREE = 'param-headers';
/** They disagree, for a tool this caller may not see: the handler answers it as it answers that caller's call. */
export const PARAM_HEADERS_HIDDEN = 'param-headers-hidden';

/** The prefixes of the internal names: a client may send such a header too, and it is never shown either. */
const INTERNAL = ['x-mcp-reflect-peer-', 'x-mcp-reflect-client-', 'x-mcp-reflect-checked-'];

/**
 * The request headers as `ctx.headers` shows them: lower-case names, without the internal ones above (their
 * names are per-process secrets: a tool that echoes its headers would hand a client a way to forge its address).
 */
export function visibleHeaders(headers: Headers | Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return Object.fromEntries(entries.filter(([name]) => !INTERNAL.some((prefix) => name.toLowerCase().startsWith(prefix))));
}
