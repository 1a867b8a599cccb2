import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  originValidationResponse,
  PROTOCOL_VERSION_META_KEY,
  readRequestBody,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import type { ServerLogger } from '../../invocation';
import type { ServerFactory } from '../server-factory';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import type { AuthOptions } from '../../interfaces';
import { AuthGate } from './auth-gate';
import { InMemoryEventStore } from './event-store';
import { jsonRpcError, jsonRpcRefusal, whenBodyEnds } from './http-messages';
import { checkParamHeaders, HEADER_MISMATCH } from './param-headers';
import type { HttpOptions } from './http-options';
import { DEFAULTS, LegacySessions, type RequestOptions } from './legacy-sessions';

export { PEER_HEADER } from './legacy-sessions';
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
  private draining = false;
  private drained?: () => void;
  private readonly unpublish: () => void;
  /** With `auth`: the resource server in front of the endpoint. */
  private readonly gate?: AuthGate;
  private readonly maxRequestBodySize: number;

  /** `endpointUrl`: where the endpoint is served (known to `listen()`), the default `auth.resource`. */
  constructor(
    private readonly factory: ServerFactory,
    private readonly options: HttpOptions,
    private readonly logger: ServerLogger,
    endpointUrl?: string,
  ) {
    const maxRequestBodySize = options.maxRequestBodySize ?? DEFAULTS.maxRequestBodySize;
    if (options.auth) this.gate = new AuthGate(options.auth, resourceOf(options.auth, endpointUrl), factory, maxRequestBodySize, logger);
    this.maxRequestBodySize = maxRequestBodySize;
    // The Mcp-Param header map is built as the HTTP endpoint starts (then once per change of the tools): a
    // hand-written schema whose x-mcp-header breaks the rules is reported now, not at the first call. Only HTTP
    // carries these headers, so stdio and in-memory servers never pay for it.
    factory.paramHeaders();
    this.modern = createMcpHandler(() => factory(), {
      legacy: options.stateless ? 'stateless' : 'reject',
      responseMode: options.jsonResponse ? 'json' : 'auto',
      maxRequestBodySize,
      onerror: (error) => this.logger.warn(`HTTP: ${error.message}`),
    });
    // 2026-07-28 clients hear about changes on their subscriptions/listen streams, which this handler holds.
    this.unpublish = factory.hub.addPublisher(this.modern.notify);
    if (!options.stateless) this.sessions = new LegacySessions(factory, options, logger, options.eventStore ?? new InMemoryEventStore());
  }

  /** The paths of the protected resource metadata (with `auth`), which the endpoint also answers. */
  get metadataPaths(): readonly string[] {
    return this.gate?.paths ?? [];
  }

  /** Web-standard face: one HTTP request in, one response out (SSE responses stream). */
  readonly fetch = async (request: Request, options: RequestOptions = {}): Promise<Response> => {
    if (this.draining) {
      return jsonRpcError(503, -32000, 'Server is shutting down: retry (on another instance).', { connection: 'close', 'retry-after': '1' });
    }
    // The protected resource metadata is public: any origin may read it (browser-based clients do).
    const metadata = this.gate?.metadata(request);
    if (metadata) return metadata;
    const refused = this.refuseOrigin(request);
    if (refused) return refused;
    if (this.gate) {
      const admitted = await this.gate.admit(request, options.parsedBody);
      if (admitted instanceof Response) return admitted;
      options = admitted;
    }
    // Calls count; GET streams (notifications, resumption) do not: sessions bound them.
    const call = request.method === 'POST';
    const limit = this.options.maxConcurrentRequests;
    if (call && limit !== undefined && this.inFlight >= limit) {
      return jsonRpcError(503, -32000, `Server busy: more than ${limit} requests in progress. Retry shortly.`, { 'retry-after': '1' });
    }
    if (call) this.inFlight++;
    let response: Response;
    try {
      const checked = call ? await this.checkParamHeaders(request, options) : options;
      if (checked instanceof Response) {
        this.release();
        return checked;
      }
      options = checked;
      const legacy = this.sessions !== undefined && (await isLegacyRequest(request.clone(), options.parsedBody));
      response = legacy ? await this.sessions!.handle(request, options) : await this.modern.fetch(request, options);
    } catch (error) {
      this.logger.error('HTTP request failed:', error);
      response = jsonRpcError(500, -32603, 'Internal server error.');
    }
    if (!call) return response;
    // A streamed (SSE) answer is in progress until its body ends, not when its headers are ready.
    if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) {
      this.release();
      return response;
    }
    return whenBodyEnds(response, this.release);
  };

  /**
   * Drains, then closes: new requests are answered 503 (`Connection: close`) at once, calls in progress may
   * finish for up to `drainTimeoutMs`, then every session is closed (aborting what is left) with the
   * per-request handler.
   */
  async close(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    this.unpublish();
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
   * they disagree with its arguments (HTTP 400, -32020). Only such calls have their body read here (once:
   * the parsed body goes on to the transport); a body that is too large or not JSON is left to the transport.
   */
  private async checkParamHeaders(request: Request, options: RequestOptions): Promise<RequestOptions | Response> {
    if (request.headers.get('mcp-method')?.trim() !== 'tools/call') return options;
    const headers = this.factory.paramHeaders();
    if (headers.size === 0) return options;
    let body = options.parsedBody;
    if (body === undefined) {
      const read = await readRequestBody(request.clone(), this.maxRequestBodySize);
      if (read.tooLarge) return options;
      try {
        body = JSON.parse(read.text) as unknown;
      } catch {
        return options;
      }
      options = { ...options, parsedBody: body };
    }
    const message = body as { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown; _meta?: Record<string, unknown> } } | null;
    if (typeof message !== 'object' || message === null || Array.isArray(message) || message.method !== 'tools/call') return options;
    const version = message.params?._meta?.[PROTOCOL_VERSION_META_KEY];
    // The per-request envelope of 2026-07-28 (an unsupported claim is the transport's to refuse, -32022).
    if (version !== '2026-07-28') return options;
    const declarations = typeof message.params?.name === 'string' ? headers.get(message.params.name) : undefined;
    const refused = declarations && checkParamHeaders(declarations, message.params?.arguments, request.headers);
    if (!refused) return options;
    this.logger.warn(`HTTP: refused tools/call ${String(message.params?.name)}: ${refused.data.mismatch.body}`);
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
    return jsonRpcRefusal(400, id, HEADER_MISMATCH, refused.message, refused.data);
  }

  private readonly release = (): void => {
    this.inFlight--;
    if (this.inFlight === 0) this.drained?.();
  };

  // DNS-rebinding protection (spec 2025-11-25 basic/transports#security-warning): Host, then Origin.
  private refuseOrigin(request: Request): Response | undefined {
    const hosts = this.options.allowedHosts;
    if (hosts && hosts.length > 0) {
      const refused = hostHeaderValidationResponse(request, hosts);
      if (refused) return refused;
    }
    const origins = this.options.allowedOrigins;
    if (origins && origins.length > 0 && request.headers.get('origin')) return originValidationResponse(request, origins);
    return undefined;
  }
}


function resourceOf(auth: AuthOptions, endpointUrl: string | undefined): string {
  const resource = auth.resource ?? endpointUrl;
  if (resource === undefined) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidAuthOptions,
      'Cannot serve with these auth options: createHttpHandler() does not know the URL clients reach it at, and tokens must be issued for that URL.\n' +
        "Fix: give it as auth.resource, e.g. app.createHttpHandler({ auth: { issuer, resource: 'https://mcp.example.com/mcp' } }).",
    );
  }
  return resource;
}
