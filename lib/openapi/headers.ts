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
  'te', 'trailer', 'expect', 'proxy-authorization', 'proxy-connection',
]);
/** OpenAPI's own rule: header parameters with these names are ignored (the request sets them). */
const IGNORED_BY_OPENAPI = new Set(['accept', 'content-type', 'authorization']);
/**
 * Headers a proxy or a framework in front of the API trusts to say who is calling and what is asked: the
 * client's address (`X-Forwarded-For`, `X-Real-IP` …, which IP allow-lists and rate limits read) and the
 * method (`X-HTTP-Method-Override` turns a GET the caller may make into a DELETE), the URL (`X-Original-URL`).
 */
const SPOOFING = new Set([
  'forwarded', 'via', 'x-real-ip', 'x-client-ip', 'true-client-ip', 'cf-connecting-ip', 'fastly-client-ip', 'x-cluster-client-ip', 'client-ip',
  'x-original-forwarded-for', 'x-http-method-override', 'x-http-method', 'x-method-override', 'x-original-url', 'x-rewrite-url',
]);

export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** A header the caller's arguments (or forwarded headers) may not set. */
export function isReservedHeader(name: string): boolean {
  return reservedHeaderReason(name) !== undefined;
}

/**
 * Why a header parameter of the document is never sent (undefined: it may be): `''` for the three OpenAPI
 * itself says are ignored (nothing to tell), else the reason, for the log.
 */
export function reservedHeaderReason(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (IGNORED_BY_OPENAPI.has(lower)) return '';
  if (SPOOFING.has(lower) || lower.startsWith('x-forwarded-')) return 'it would tell the API who is calling or what is asked, which only a proxy may say';
  if (RESERVED.has(lower) || lower.startsWith('proxy-')) return 'it would change where the request goes, how it is framed or its credentials';
  if (lower.startsWith('mcp-') || lower.startsWith('sec-')) return "it is one of MCP's or the browser's own headers";
  return undefined;
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
