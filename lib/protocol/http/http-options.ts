import type { AuthOptions } from '../../interfaces';
import type { EventStore } from './event-store';
import type { SessionStore } from './session-store';

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
  /** Most sessions one client may hold at once (see `clientKey`); one more is answered 429. Default 1,000. */
  maxSessionsPerClient?: number;
  /**
   * Who a request comes from, for `maxSessionsPerClient`: by default the remote address of its connection
   * (through `listen()` or `createHttpHandler()`). Behind a proxy, derive it from a header the proxy sets
   * (and clients cannot), e.g. `(request) => request.headers.get('x-real-ip') ?? undefined`. Undefined: no
   * per-client limit for that request.
   */
  clientKey?: (request: Request, remoteAddress: string | undefined) => string | undefined;
  /** A session unused this long is closed and its in-flight calls aborted. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** A session whose client has not sent `notifications/initialized` this long after `initialize`, and has sent nothing else, is closed. Default 30 s. */
  handshakeTimeoutMs?: number;
  /** Largest request body in bytes; larger is answered 413. Default 4 MiB. */
  maxRequestBodySize?: number;
  /**
   * Most calls (POST requests) in progress at once; more are answered 503. A call holds its slot until its
   * answer has been produced, even when its client disconnected (see docs/http.md). Default unlimited.
   */
  maxConcurrentRequests?: number;
  /** On close: how long calls in progress may go on finishing before they are aborted. Default 10 s. */
  drainTimeoutMs?: number;
  /** Where SSE events are kept for `Last-Event-ID` resumption. Default: an InMemoryEventStore. */
  eventStore?: EventStore;
  /**
   * Where 2025-era sessions are remembered beyond this instance (`RedisSessionStore`): another instance then
   * serves a session this one opened (no sticky routing needed, and sessions outlive a restart). Default:
   * none (a session lives in the instance that opened it).
   */
  sessionStore?: SessionStore;
  /**
   * Authorization: the endpoint becomes an OAuth 2.1 resource server (docs/auth.md). Requests need a bearer
   * token issued for this server; `/.well-known/oauth-protected-resource` tells clients where to get one.
   */
  auth?: AuthOptions;
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
  /** A client must send its request headers within this time, or the connection is closed. Default 10 s. */
  headersTimeoutMs?: number;
  /** A client must send its whole request (headers and body) within this time, or gets 408. Default 30 s. */
  requestTimeoutMs?: number;
}
