import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isJsonContentType,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type AuthInfo,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { MODERN_REVISION } from '../../context';
import type { ServerLogger } from '../../interfaces';
import type { HttpServing } from '../http-serving';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import type { AuthOptions } from '../../interfaces';
import { AuthGate, type Admitted } from '../../auth/auth-gate';
import { AuthorizationServer } from '../../auth/server/authorization-server';
import { InMemoryEventStore } from './event-store';
import { Admission, resolveLimits, type HttpLimits, type ListenTicket, type PendingBytes } from './http-limits';
import { jsonRpcError, jsonRpcRefusal, unread, watchBody } from './http-messages';
import type { HttpOptions } from './http-options';
import { DEFAULTS, LegacySessions, type RequestOptions } from './legacy-sessions';
import { checkedHeader, clientHeader, PARAM_HEADERS_AGREE, PARAM_HEADERS_HIDDEN, peerHeader } from '../../server/peer-headers';
import { clientKeyOf, isLoopbackAddress } from '../../server/client-address';
import { readBody, type ReadMessage } from '../../server/message-reading';
import { checkParamHeaders, HEADER_MISMATCH } from '../../server/param-headers';
import { checkParsedBody, parseBody, receiveBody, webBody, type BodyRefusal, type BodySource } from './request-body';
import { ServerCard } from './server-card';

/** What the framework adapter in front passes along besides the request (all optional). */
export interface EndpointRequestOptions extends RequestOptions {
  /** The body to receive when the endpoint is ready for it (the Node adapter's request stream). */
  readonly body?: BodySource;
  /** Who the request comes from, when the adapter already asked `clientOf`. */
  readonly client?: string;
}

export { jsonRpcError } from './http-messages';

/**
 * One Streamable HTTP endpoint serving both protocol eras (spec 2025-11-25 basic/transports#streamable-http
 * and 2026-07-28): requests carrying the 2026-07-28 envelope go to the SDK's per-request handler; 2025-era
 * traffic is served with sessions (`Mcp-Session-Id`, SSE, resumable streams), or per request when stateless.
 */
export class HttpEndpoint {
  private readonly modern: McpHttpHandler;
  private readonly sessions?: LegacySessions;
  /** Calls (POST requests) whose answer is still being produced. */
  private inFlight = 0;
  /** Calls in progress by client (only those with some). */
  private readonly inFlightBy = new Map<string, number>();
  private draining = false;
  private drained?: () => void;
  private readonly unpublish: () => void;
  /** With `auth`: the resource server in front of the endpoint. */
  private readonly gate?: AuthGate;
  /** With `auth.server`: the authorization server on this endpoint's origin (served by the Node adapter). */
  readonly authorizationServer?: AuthorizationServer;
  /** The bounds of this endpoint, and what counts against them. */
  readonly limits: HttpLimits;
  private readonly admission: Admission;
  /** The bus of the 2026-07-28 listen streams: each update reaches only the streams whose caller may see it. */
  private readonly listenBus: ReturnType<HttpServing['listenBus']>;
  /** With `serverCard`: the card (SEP-2127), public like the protected resource metadata. */
  private readonly card?: ServerCard;

  /** `endpointUrl`: where the endpoint is served (known to `listen()`), the default `auth.resource`. */
  constructor(
    private readonly serving: HttpServing,
    private readonly options: HttpOptions,
    private readonly logger: ServerLogger,
    endpointUrl?: string,
  ) {
    this.limits = resolveLimits(options);
    this.admission = new Admission(this.limits);
    const maxRequestBodySize = this.limits.maxRequestBodySize;
    if (options.auth) {
      const resource = resourceOf(options.auth, endpointUrl);
      // With `auth.server`, this endpoint's origin is its own authorization server, whose tokens it accepts.
      if (options.auth.server) this.authorizationServer = new AuthorizationServer(options.auth.server, resource, options.auth.scopesSupported, logger, options.auth.dpop);
      this.gate = new AuthGate(this.authorizationServer?.resourceOptions(options.auth) ?? options.auth, resource, serving.app, logger);
    }
    if (options.serverCard) {
      const gate = this.gate;
      this.card = new ServerCard(
        options.serverCard,
        {
          info: serving.app.info,
          capabilities: () => serving.servers.capabilities(),
          // The document the gate serves, as it serves it.
          ...(gate ? { auth: { metadataUrl: gate.resourceMetadataUrl, metadata: async () => (await gate.metadata(new Request(gate.resourceMetadataUrl))!.json()) as Record<string, unknown> } } : {}),
        },
        options.auth ? resourceOf(options.auth, endpointUrl) : endpointUrl,
      );
    }
    // The Mcp-Param header map is built as the HTTP endpoint starts (then once per change of the tools): a
    // hand-written schema whose x-mcp-header breaks the rules is reported now, not at the first call. Only HTTP
    // carries these headers, so stdio and in-memory servers never pay for it.
    serving.paramHeaders();
    this.listenBus = serving.listenBus((error) => this.logger.warn(`HTTP: ${error.message}`));
    this.modern = createMcpHandler(() => serving.servers.create(), {
      bus: this.listenBus,
      legacy: options.stateless ? 'stateless' : 'reject',
      responseMode: options.jsonResponse ? 'json' : 'auto',
      maxRequestBodySize,
      maxSubscriptions: this.limits.maxListenStreams,
      onerror: (error) => this.logger.warn(`HTTP: ${error.message}`),
    });
    // 2026-07-28 clients hear about changes on their subscriptions/listen streams, which this handler holds.
    this.unpublish = serving.hub.addPublisher(this.modern.notify);
    if (!options.stateless) this.sessions = new LegacySessions(serving, options, this.limits, this.admission, logger, options.eventStore === false ? undefined : (options.eventStore ?? new InMemoryEventStore()));
  }

  /** The paths of the protected resource metadata (with `auth`), which the endpoint also answers. */
  get metadataPaths(): readonly string[] {
    return this.gate?.paths ?? [];
  }

  /** The paths of the server card (with `serverCard`), which the endpoint also answers. */
  get serverCardPaths(): readonly string[] {
    return this.card?.paths ?? [];
  }

  /**
   * Who a request comes from, for the per-client bounds: `clientKey`'s answer, else the connection's remote
   * address; an IPv6 address by its network (`ipv6Prefix`), a long key by its digest (clientKeyOf).
   */
  clientOf(request: Request): string | undefined {
    const remote = request.headers.get(peerHeader()) ?? undefined;
    const key = this.options.clientKey ? this.options.clientKey(request, remote) : remote;
    return key === undefined ? undefined : clientKeyOf(key, this.limits.ipv6Prefix);
  }

  /** The unread bytes of one answer to `client` (the Node adapter counts them while it writes). */
  pendingFor(client: string | undefined): PendingBytes {
    return this.admission.pending(client);
  }

  /**
   * Web-standard face: one HTTP request in, one response out (SSE responses stream). What costs nothing is
   * checked first (shutdown, Host and Origin, the token, the client's unread answers, calls in progress), then
   * the body is received within its bounds and parsed once; the parsed body goes on to the transport.
   */
  readonly fetch = async (request: Request, options: EndpointRequestOptions = {}): Promise<Response> => {
    if (this.draining) {
      return jsonRpcError(503, -32000, 'Server is shutting down: retry (on another instance).', { connection: 'close', 'retry-after': '1' });
    }
    // The protected resource metadata is public: any origin may read it (browser-based clients do).
    const metadata = this.gate?.metadata(request);
    if (metadata) return metadata;
    // So is the server card; its Host is checked (without auth its URL may come from the request's).
    if (this.card?.answers(new URL(request.url).pathname)) {
      const refused = this.refuseOrigin(request, false);
      return refused ? unread(refused) : this.card.respond(request);
    }
    const refused = this.refuseOrigin(request);
    if (refused) return unread(refused);
    let admitted: Admitted | undefined;
    if (this.gate) {
      const verified = await this.gate.authenticate(request);
      if (verified instanceof Response) return unread(verified);
      admitted = verified;
    }
    const { client = this.clientOf(request), body, parsedBody } = options;
    if (client !== undefined) request.headers.set(clientHeader(), client);
    const forwarded: RequestOptions = admitted ? { authInfo: admitted.authInfo } : options.authInfo ? { authInfo: options.authInfo } : {};
    // GET streams (notifications, resumption) and DELETE carry no body and are no calls: sessions bound them.
    if (request.method !== 'POST') return this.dispatch(request, forwarded);
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return unread(jsonRpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json.'));
    }
    const slow = this.admission.slowReader(client);
    if (slow) return unread(jsonRpcError(slow.status, -32000, slow.message, { 'retry-after': '1' }));
    const limit = this.options.maxConcurrentRequests;
    if (limit !== undefined && this.inFlight >= limit) {
      return unread(jsonRpcError(503, -32000, `Server busy: more than ${limit} requests in progress. Retry shortly.`, { 'retry-after': '1' }));
    }
    const perClient = this.options.maxConcurrentRequestsPerClient ?? (limit !== undefined ? Math.max(1, Math.ceil(limit / 4)) : undefined);
    if (perClient !== undefined && client !== undefined && (this.inFlightBy.get(client) ?? 0) >= perClient) {
      return unread(jsonRpcError(429, -32000, `Too many requests in progress from this client (at most ${perClient}). Retry shortly.`, { 'retry-after': '1' }));
    }
    let release: (() => void) | undefined = this.enter(client);
    let response: Response;
    try {
      const json = parsedBody !== undefined ? this.parsed(parsedBody) : await this.receive(request, body, client);
      if (json instanceof Response) {
        response = json;
      } else {
        const message = json?.json;
        const sent: RequestOptions = { ...forwarded, ...(json !== undefined ? { parsedBody: message } : {}) };
        // The body is read once; every check below reads that reading.
        const read = readBody(message);
        const stepUp = admitted && this.gate!.stepUpFor(admitted, read);
        const headerRefusal = stepUp ? undefined : await this.checkParamHeaders(request, read.single, sent.authInfo);
        const listen = stepUp || headerRefusal ? undefined : this.admitListen(read.single, client);
        if (stepUp || headerRefusal || listen instanceof Response) {
          response = (stepUp ?? headerRefusal ?? listen) as Response;
        } else if (listen) {
          // A listen stream is not a call in progress: it holds no call slot, and listen bounds count it instead.
          release!();
          release = undefined;
          const stream = await this.dispatch(request, sent, read.single).catch((error: unknown) => {
            listen.release(); // its place is free again
            throw error;
          });
          response = watchBody(stream, listen.release, this.limits.listenIdleTimeoutMs, listen.bind);
        } else {
          response = await this.dispatch(request, sent, read.single);
        }
      }
    } catch (error) {
      this.logger.error('HTTP request failed:', error);
      response = jsonRpcError(500, -32603, 'Internal server error.');
    }
    if (!release) return response;
    // A streamed (SSE) answer is in progress until its body ends, not when its headers are ready.
    if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) {
      release();
      return response;
    }
    return watchBody(response, release);
  };

  /** One request, parsed (`message`: the one message it carries, read), to the era that serves it: 2025 sessions, or the per-request handler. */
  private async dispatch(request: Request, options: RequestOptions, message?: ReadMessage): Promise<Response> {
    const legacy = this.sessions !== undefined && (await isLegacyRequest(request, options.parsedBody));
    if (legacy) return this.sessions!.handle(request, options);
    // The caller of a listen stream is kept with it, so that updates of what it may not see never reach it; other
    // requests open no stream and pay nothing for it.
    if (message?.method !== 'subscriptions/listen') return this.modern.fetch(request, options);
    return this.listenBus.as(this.serving.callerOf(request, options.authInfo, message), () => this.modern.fetch(request, options));
  }

  /**
   * The body, received within the bounds of bodies in flight (a client may send only so many at once, and all
   * clients together only so many bytes) and parsed once; the answer that refuses it otherwise.
   */
  private async receive(request: Request, source: BodySource | undefined, client: string | undefined): Promise<{ json: unknown } | Response | undefined> {
    const from = source ?? webBody(request);
    if (!from) return undefined;
    const limits = this.limits;
    if (from.declared !== undefined && from.declared > limits.maxRequestBodySize) {
      return unread(jsonRpcError(413, -32000, `Payload Too Large: the body is over ${limits.maxRequestBodySize} bytes.`));
    }
    const ticket = this.admission.enterBody(client, Math.min(from.declared ?? 0, limits.maxRequestBodySize));
    if (!('add' in ticket)) return unread(jsonRpcError(ticket.status, -32000, ticket.message, { 'retry-after': '1' }));
    let bytes: Uint8Array | BodyRefusal;
    try {
      bytes = await receiveBody(from, limits, ticket);
    } finally {
      ticket.release();
    }
    if (!(bytes instanceof Uint8Array)) return unread(jsonRpcError(bytes.status, bytes.code, bytes.message));
    const parsed = parseBody(bytes, limits);
    if (parsed === undefined || 'json' in parsed) return parsed;
    return jsonRpcError(parsed.status, parsed.code, parsed.message);
  }

  /**
   * A body a framework parsed before the endpoint (Express's `express.json()`): held to the bounds of the
   * endpoint's own bodies (depth, containers, batch size, bytes) before anything reads it.
   */
  private parsed(json: unknown): { json: unknown } | Response {
    const refused = checkParsedBody(json, this.limits);
    return refused ? jsonRpcError(refused.status, refused.code, refused.message) : { json };
  }

  /** A 2026-07-28 `subscriptions/listen`: admitted under the per-client and total stream bounds (the release), or refused. */
  private admitListen(message: ReadMessage | undefined, client: string | undefined): ListenTicket | Response | undefined {
    if (message?.method !== 'subscriptions/listen') return undefined;
    const admitted = this.admission.enterListen(client);
    if (!('status' in admitted)) return admitted;
    return jsonRpcRefusal(admitted.status, message.id ?? null, -32000, admitted.message);
  }

  /**
   * Drains, then closes: new requests are answered 503 (`Connection: close`) at once, calls in progress may
   * finish for up to `drainTimeoutMs`, then every session is closed (aborting what is left) with the
   * per-request handler.
   */
  async close(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    this.unpublish();
    this.authorizationServer?.close();
    if (this.inFlight > 0) {
      const timeout = this.options.drainTimeoutMs ?? DEFAULTS.drainTimeoutMs;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => (this.drained = resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, timeout))),
      ]);
      clearTimeout(timer);
    }
    await Promise.allSettled([this.sessions?.close(), this.modern.close()]);
  }

  /**
   * SEP-2243: a 2026-07-28 `tools/call` of a tool with `Mcp-Param-*` headers is refused before dispatch when
   * they disagree with its arguments (HTTP 400, -32020), read from the body read once. The check is made once:
   * the handler is told its outcome (agree, or a tool this caller may not see) and does not make it again.
   */
  private async checkParamHeaders(request: Request, message: ReadMessage | undefined, authInfo: AuthInfo | undefined): Promise<Response | undefined> {
    // What the handler is told of this check: nothing, unless it is made here (a client cannot send the header).
    request.headers.delete(checkedHeader());
    if (request.headers.get('mcp-method')?.trim() !== 'tools/call' || message?.method !== 'tools/call') return undefined;
    // The per-request envelope of 2026-07-28 (an unsupported claim is the transport's to refuse, -32022).
    if (message.protocolVersion !== MODERN_REVISION || message.name === undefined) return undefined;
    const declarations = this.serving.paramHeaders().get(message.name);
    const refused = declarations && checkParamHeaders(declarations, message.arguments, request.headers);
    if (!refused) return void request.headers.set(checkedHeader(), PARAM_HEADERS_AGREE);
    // A tool the caller may not see: no header is named; the tools/call handler answers it as a missing tool.
    if (!(await this.serving.toolVisible(message.name, this.serving.callerOf(request, authInfo, message)))) return void request.headers.set(checkedHeader(), PARAM_HEADERS_HIDDEN);
    this.logger.warn(`HTTP: refused tools/call ${message.name}: ${refused.data.mismatch.body}`);
    return jsonRpcRefusal(400, message.id ?? null, HEADER_MISMATCH, refused.message, refused.data);
  }

  /** A call in progress, counted in all and for its client: the release (once). */
  private enter(client: string | undefined): () => void {
    this.inFlight++;
    if (client !== undefined) this.inFlightBy.set(client, (this.inFlightBy.get(client) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      if (client !== undefined) {
        const left = (this.inFlightBy.get(client) ?? 1) - 1;
        if (left > 0) this.inFlightBy.set(client, left);
        else this.inFlightBy.delete(client);
      }
      if (this.inFlight === 0) this.drained?.();
    };
  }

  /**
   * The authorization server's paths get the endpoint's answer to a foreign Host, and to a foreign Origin — but
   * for its public metadata and its own pages (the consent form posts from them with `Origin: null`, as pages
   * without a referrer do; the interaction's cookie and CSRF token guard them).
   */
  refuseForAuthorization(request: Request): Response | undefined {
    const server = this.authorizationServer;
    if (!server) return undefined;
    const origin = request.headers.get('origin');
    const { pathname } = new URL(request.url);
    const ownPage = !origin || server.paths.includes(pathname) || server.isPage(pathname) || (URL.canParse(origin) && new URL(origin).origin === new URL(server.issuer).origin);
    return this.refuseOrigin(request, !ownPage);
  }

  /**
   * DNS-rebinding protection (spec 2025-11-25 basic/transports#security-warning): Host, then Origin. Unless the
   * options name what to accept, a request that came over loopback (where a rebound page reaches a local server)
   * must name a loopback host and origin, wherever the server is bound and whichever adapter is in front.
   */
  private refuseOrigin(request: Request, checkOrigin = true): Response | undefined {
    const peer = request.headers.get(peerHeader());
    const local = peer !== null && isLoopbackAddress(peer);
    const hosts = this.options.allowedHosts ?? (local ? localhostAllowedHostnames() : undefined);
    if (hosts && hosts.length > 0) {
      const refused = hostHeaderValidationResponse(request, hosts);
      if (refused) return refused;
    }
    const origins = this.options.allowedOrigins ?? (local ? localhostAllowedOrigins() : undefined);
    if (checkOrigin && origins && origins.length > 0 && request.headers.get('origin')) return originValidationResponse(request, origins);
    return undefined;
  }
}


function resourceOf(auth: AuthOptions, endpointUrl: string | undefined): string {
  const resource = auth.resource ?? endpointUrl;
  if (resource === undefined) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidAuthOptions,
      'Cannot serve with these auth options: createHttpHandler() and createFetchHandler() do not know the URL clients reach them at, and tokens must be issued for that URL.\n' +
        "Fix: give it as auth.resource, e.g. app.createFetchHandler({ auth: { issuer, resource: 'https://mcp.example.com/mcp' } }).",
    );
  }
  return resource;
}
