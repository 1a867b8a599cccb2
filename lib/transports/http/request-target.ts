/** Where a request is addressed: the authority it names and the path (with its query) on it. */
export interface RequestTarget {
  /** `host[:port]`, as the Host header (or an absolute-form target) gave it; `localhost` when neither did. */
  readonly authority: string;
  /** The path and query, starting with `/`. */
  readonly path: string;
  /** The path alone, for routing. */
  readonly pathname: string;
}

/** A host name or IPv4 address, or a bracketed IPv6 address, with an optional port (RFC 9110 §7.2, RFC 3986 §3.2.2). */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;
/** An absolute-form request target (RFC 9112 §3.2.2): scheme, authority, then the path. */
const ABSOLUTE = /^https?:\/\/([^/?#]*)([^#]*)/i;

/**
 * The target of a request line and its Host header, or why they cannot make a URL (the caller answers 400): an origin-form target (`/mcp?x`), or an absolute-form one (`http://host/mcp`, whose authority replaces
 * the Host header, RFC 9112 §3.2.2); a Host that is a name or address with a port of at most 65535. Asterisk-
 * and authority-form targets (OPTIONS *, CONNECT) are not for an MCP endpoint. A string says what is wrong.
 */
export function requestTarget(url: string | undefined, host: string | string[] | undefined): RequestTarget | string {
  let authority = Array.isArray(host) ? host[0] : host;
  let path = url ?? '/';
  if (!path.startsWith('/')) {
    const absolute = ABSOLUTE.exec(path);
    if (!absolute) return 'Bad Request: invalid request target.';
    authority = absolute[1];
    path = absolute[2] || '/';
    if (!path.startsWith('/')) path = `/${path}`;
  }
  if (authority === undefined || authority === '') authority = 'localhost';
  const parts = HOST.exec(authority);
  if (!parts || (parts[1] !== undefined && Number(parts[1]) > 65535)) return 'Bad Request: invalid Host header.';
  // `//x` would read as an authority in a URL: the path keeps one leading slash.
  if (path.startsWith('//')) path = path.replace(/^\/+/, '/');
  const query = path.search(/[?#]/);
  return { authority, path, pathname: query === -1 ? path : path.slice(0, query) };
}
