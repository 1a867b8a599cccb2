/** An HTTP field name (RFC 9110 §5.1: a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers a request's arguments never set, nor `forwardHeaders` passes on: what says where the request goes
 * and how it is framed (`host`, `content-length`, …), the credentials (`authorization`, `cookie`: set only by
 * the server's own options), and MCP's own headers. OpenAPI itself says header parameters named `Accept`,
 * `Content-Type` and `Authorization` are ignored.
 */
const RESERVED = new Set([
  'accept', 'content-type', 'authorization', 'cookie', 'host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade',
  'te', 'trailer', 'expect', 'proxy-authorization', 'proxy-connection', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto',
]);

export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** A header the caller's arguments (or forwarded headers) may not set. */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED.has(lower) || lower.startsWith('mcp-') || lower.startsWith('proxy-') || lower.startsWith('sec-');
}

/**
 * Why a header value cannot be sent, or undefined when it can: CR, LF and NUL would split or end the header
 * (header injection); a value is otherwise visible ASCII, spaces and tabs (and Latin-1, which fetch accepts).
 */
export function headerValueProblem(value: string): string | undefined {
  if (/[\r\n\0]/.test(value)) return 'contains CR, LF or NUL, which could inject another header';
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) return 'contains control characters or characters outside ISO-8859-1';
  return undefined;
}
