import type { AuthInfo } from '@modelcontextprotocol/server';
import type { ServerLogger } from '../../interfaces';
import { peerHeader } from '../../server/peer-headers';
import type { HttpServing } from '../http-serving';
import { HttpEndpoint, jsonRpcError } from './http-endpoint';
import type { HttpOptions } from './http-options';
import { meterBody } from './response-meter';
import { serverCardPaths } from './server-card';

/** Options of `app.createFetchHandler()`: the HTTP options, and where the endpoint is. */
export interface FetchHandlerOptions extends HttpOptions {
  /**
   * The path of the MCP endpoint (e.g. `/mcp`): requests to other paths (but the protected resource metadata
   * with `auth`, and `GET /healthz`) are answered 404. Without it, every request is one for the endpoint: the
   * router in front (Hono, a Next.js route) decides what reaches it.
   */
  path?: string;
}

/** What the runtime knows of a request that the request itself does not carry. */
export interface FetchRequestInfo {
  /**
   * The client's address: Bun's `server.requestIP(request)?.address`, Deno's `info.remoteAddr.hostname`,
   * `@hono/node-server`'s `getConnInfo(c).remote.address`, Cloudflare's `CF-Connecting-IP` header (give a header
   * only if a proxy you trust sets it). Every per-client bound counts by it (sessions, bodies in flight, unread
   * answers, listen streams, tasks), and a request from loopback must name a loopback Host and Origin unless
   * `allowedHosts`/`allowedOrigins` say otherwise. Without it (and without a `clientKey` that names the client),
   * none of this applies to the request: the handler warns once.
   */
  readonly remoteAddress?: string;
  /** The caller, verified by your own middleware in front (as `req.auth` is for `createHttpHandler()`). */
  readonly authInfo?: AuthInfo;
}

/** A web-standard handler: a `Request` in, a `Response` out (SSE answers stream). */
export type FetchHandler = ((request: Request, info?: FetchRequestInfo) => Promise<Response>) & {
  /** Drains calls in progress and closes the sessions. */
  close(): Promise<void>;
  /** With `auth`: the paths of the protected resource metadata, which this handler answers too. */
  readonly metadataPaths: readonly string[];
  /** With `serverCard`: the paths of the server card, which this handler answers too. */
  readonly serverCardPaths: readonly string[];
};

/** Methods no MCP request uses (and that some runtimes' Request cannot carry). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The endpoint behind a web-standard `fetch` face, for runtimes without node:http (Cloudflare Workers, Deno,
 * Bun) and for routers that speak `Request`/`Response` (Hono, Next.js route handlers). The same endpoint as the
 * Node handler: the same checks, bounds and answers; its answers are handed to the runtime as the client reads
 * them (meterBody), so that unread answers count against their client as they do on Node.
 */
export function createFetchHandler(serving: HttpServing, options: FetchHandlerOptions, logger: ServerLogger): FetchHandler {
  const { path, ...http } = options;
  const endpoint = new HttpEndpoint(serving, http, logger, http.auth?.resource);
  const { writeTimeoutMs } = endpoint.limits;
  // The card of an endpoint at `path` is at `${path}/server-card` whether or not its URL is known.
  const cardPaths = options.serverCard && path !== undefined ? [...endpoint.serverCardPaths, ...serverCardPaths(path)] : endpoint.serverCardPaths;
  const ours = (pathname: string) => path === undefined || pathname === path || endpoint.metadataPaths.includes(pathname) || cardPaths.includes(pathname);
  let warned = false;
  const handler = async (request: Request, info: FetchRequestInfo = {}): Promise<Response> => {
    try {
      const url = new URL(request.url);
      if (!ours(url.pathname)) {
        if (url.pathname === '/healthz' && request.method === 'GET') return Response.json({ status: 'ok' });
        return jsonRpcError(404, -32000, `Not found: the MCP endpoint is ${path}`);
      }
      if (FORBIDDEN_METHODS.has(request.method)) return jsonRpcError(405, -32000, 'Method Not Allowed.', { allow: 'GET, POST, DELETE' });
      // A request of our own: the runtime's may have immutable headers, and the peer's address goes in a header
      // whose name is random per process (no client can send it).
      const headers = new Headers(request.headers);
      if (info.remoteAddress) headers.set(peerHeader(), info.remoteAddress);
      const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers, signal: request.signal };
      if (request.body && request.method !== 'GET' && request.method !== 'HEAD') Object.assign(init, { body: request.body, duplex: 'half' });
      const own = new Request(url, init);
      const client = endpoint.clientOf(own);
      if (client === undefined && !warned) {
        warned = true;
        logger.warn(
          'HTTP: createFetchHandler() got a request without the client\'s address: no per-client bound applies to it (sessions, bodies, unread answers, listen streams, tasks), ' +
            'and its Host and Origin are checked only against allowedHosts/allowedOrigins. Pass it: handler(request, { remoteAddress }) (docs/runtimes.md), or set clientKey.',
        );
      }
      const response = await endpoint.fetch(own, { ...(client !== undefined ? { client } : {}), ...(info.authInfo ? { authInfo: info.authInfo } : {}) });
      return meterBody(response, endpoint.pendingFor(client), { call: request.method === 'POST', stallMs: writeTimeoutMs });
    } catch (error) {
      logger.warn(`HTTP: ${error instanceof Error ? error.message : String(error)}`);
      return jsonRpcError(500, -32603, 'Internal server error.');
    }
  };
  return Object.assign(handler, { close: () => endpoint.close(), metadataPaths: endpoint.metadataPaths, serverCardPaths: [...new Set(cardPaths)] });
}
