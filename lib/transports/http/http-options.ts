import type { AuthOptions } from '../../interfaces';
import type { EventStore } from './event-store';
import type { SessionStore } from './session-store';
import type { ServerCardOptions } from './server-card';

/** Options of the Streamable HTTP endpoint (`app.listen({ transport: 'http', ... })`, `app.createHttpHandler()`). */
export interface HttpOptions {
  /** Serve without sessions: any instance can answer any request (scale-out). Default false (stateful). */
  stateless?: boolean;
  /** Answer with one JSON body instead of an SSE stream (mid-call notifications are then not delivered). */
  jsonResponse?: boolean;
  /**
   * Accepted `Host` header names (DNS-rebinding protection). Default: on a loopback bind, and for a request that
   * comes over loopback (its remote address is 127.0.0.0/8 or ::1), the loopback names `localhost`, `127.0.0.1`,
   * `[::1]`; otherwise none checked. `[]`: no check at all.
   */
  allowedHosts?: string[];
  /**
   * Accepted `Origin` header hosts; a request without Origin (not from a browser) is always accepted. Default as
   * for `allowedHosts`: loopback origins for a request over loopback. `[]`: no check at all.
   */
  allowedOrigins?: string[];
  /**
   * Most sessions at once. When they are all open, a new `initialize` ends the least recently used session of
   * the client holding the most (if it holds at least two more than the newcomer: a fair share), else it is
   * answered 503. Default: what a quarter of the heap holds (16 KiB a session), between 100 and 10,000 (10,000
   * from a heap of 640 MiB up; Node's default heap is larger).
   */
  maxSessions?: number;
  /** Most sessions one client may hold at once (see `clientKey`); one more is answered 429. Default a tenth of `maxSessions`, at most 1,000. */
  maxSessionsPerClient?: number;
  /**
   * Who a request comes from, for the per-client bounds (sessions, bodies in flight, unread answers, listen
   * streams): by default the remote address of its connection
   * (through `listen()` or `createHttpHandler()`). Behind a proxy, derive it from a header the proxy sets
   * (and clients cannot), e.g. `(request) => request.headers.get('x-real-ip') ?? undefined`. Undefined: no
   * per-client limit for that request.
   */
  clientKey?: (request: Request, remoteAddress: string | undefined) => string | undefined;
  /**
   * Client addresses are grouped for the per-client bounds: an IPv6 address counts as its network of this many
   * bits (a host is given a /64 and may use any address in it); an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`)
   * as its IPv4 address. Applies to the remote address and to a `clientKey` that returns an address. Default 64.
   */
  ipv6Prefix?: number;
  /** A session unused this long is closed and its in-flight calls aborted. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** A session whose client has not sent `notifications/initialized` this long after `initialize`, and has sent nothing else, is closed. Default 30 s. */
  handshakeTimeoutMs?: number;
  /** Largest request body in bytes; larger is answered 413. Default 4 MiB. */
  maxRequestBodySize?: number;
  /**
   * A request's body must arrive within this time after its headers, or it is answered 408 (also behind
   * `createHttpHandler()`, where the HTTP server is not ours). Default 30 s.
   */
  requestTimeoutMs?: number;
  /** Most request bodies being received at once (all clients); one more is answered 503 before it is read. Default 256. */
  maxBodiesInFlight?: number;
  /** Most request bodies one client may be sending at once; one more is answered 429 before it is read. Default 16. */
  maxBodiesInFlightPerClient?: number;
  /** Bytes of request bodies being received at once (all clients). Default an eighth of the heap limit, 8 MiB to 256 MiB. */
  maxBodyBytesInFlight?: number;
  /** Bytes of request bodies one client may be sending at once. Default a quarter of `maxBodyBytesInFlight`, at least `maxRequestBodySize`. */
  maxBodyBytesInFlightPerClient?: number;
  /** Deepest nesting of objects and arrays in a request body; deeper is answered 400 (-32600) before it is parsed. Default 64. */
  maxJsonDepth?: number;
  /** Most objects and arrays in one request body; more is answered 400 (-32600) before it is parsed. Default 100,000. */
  maxJsonContainers?: number;
  /** Most messages in one JSON-RPC batch (2025-03-26 clients); more is answered 400 (-32600). Default 100. */
  maxBatchSize?: number;
  /**
   * Bytes of answers written to clients that do not read them yet (all clients); while more wait, new calls are
   * answered 503. Default an eighth of the heap limit, 8 MiB to 256 MiB.
   */
  maxPendingResponseBytes?: number;
  /** Bytes of unread answers one client may leave; past them its new calls are answered 429. Default a quarter of `maxPendingResponseBytes`. */
  maxPendingResponseBytesPerClient?: number;
  /** A response write that makes no progress (the client reads nothing) this long ends the connection. Default 30 s. */
  writeTimeoutMs?: number;
  /**
   * Most 2026-07-28 `subscriptions/listen` streams open at once. When all are open, a new one ends the oldest
   * stream of the client holding the most (if it holds at least two more than the newcomer), else it is answered
   * 503. Default 1,024.
   */
  maxListenStreams?: number;
  /** Most `subscriptions/listen` streams one client may hold open; one more is answered 429. Default 16. */
  maxListenStreamsPerClient?: number;
  /** A `subscriptions/listen` stream that carried no notification this long is ended (the client listens again). Default 10 minutes. */
  listenIdleTimeoutMs?: number;
  /**
   * Most calls (POST requests) in progress at once; more are answered 503. A call holds its slot until its
   * answer has been produced, even when its client disconnected (see docs/http.md). Default unlimited.
   */
  maxConcurrentRequests?: number;
  /**
   * Most calls in progress from one client (see `clientKey`): one more is answered 429, so that one client's
   * hanging calls cannot take every place of `maxConcurrentRequests`. Default a quarter of it (unlimited without it).
   */
  maxConcurrentRequestsPerClient?: number;
  /** On close: how long calls in progress may go on finishing before they are aborted. Default 10 s. */
  drainTimeoutMs?: number;
  /**
   * Where SSE events are kept for `Last-Event-ID` resumption. Default: an InMemoryEventStore. `false`: none
   * are kept, so a 2025-era stream that breaks cannot be resumed (its answers are lost to that client), and an
   * idle session holds no copy of its `initialize` answer (about 2 KiB less per session).
   */
  eventStore?: EventStore | false;
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
  /**
   * Serve a server card (SEP-2127, experimental): `GET <endpoint>/server-card` and `/.well-known/mcp/server-card`
   * answer a document naming the server, its endpoint and protocol versions, its authorization metadata and
   * extensions, for clients and catalogues that discover servers before they connect (docs/http.md#server-card).
   * Default: none.
   */
  serverCard?: ServerCardOptions;
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
}
