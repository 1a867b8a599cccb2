import type { EventStore } from './event-store';

/** Options of the Streamable HTTP endpoint (`app.listen({ transport: 'http', ... })`, `app.createHttpHandler()`). */
export interface HttpOptions {
  /** Serve without sessions: any instance can answer any request (scale-out). Default false (stateful). */
  stateless?: boolean;
  /** Answer with one JSON body instead of an SSE stream (mid-call notifications are then not delivered). */
  jsonResponse?: boolean;
  /** Accepted `Host` header names (DNS-rebinding protection); loopback names by default on a loopback bind. */
  allowedHosts?: string[];
  /** Accepted `Origin` header hosts; a request without Origin (not from a browser) is always accepted. */
  allowedOrigins?: string[];
  /** Most sessions at once; one more `initialize` is answered 503. Default 10,000. */
  maxSessions?: number;
  /** A session unused this long is closed and its in-flight calls aborted. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Largest request body in bytes; larger is answered 413. Default 4 MiB. */
  maxRequestBodySize?: number;
  /** Most requests in progress at once; more are answered 503. Default unlimited. */
  maxConcurrentRequests?: number;
  /** Where SSE events are kept for `Last-Event-ID` resumption. Default: in memory. */
  eventStore?: EventStore;
}

/** `app.listen({ transport: 'http' })`: where to bind. */
export interface HttpListenOptions extends HttpOptions {
  transport: 'http';
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 3000; 0 picks a free port (see `app.getUrl()`). */
  port?: number;
  /** The MCP endpoint path. Default '/mcp'. */
  path?: string;
}
