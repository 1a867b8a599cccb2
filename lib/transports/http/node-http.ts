import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localhostAllowedHostnames, localhostAllowedOrigins, type AuthInfo } from '@modelcontextprotocol/server';
import type { ServerLogger } from '../../interfaces';
import type { HttpServing } from '../http-serving';
import { OAUTH_PREFIX } from '../../auth/server/authorization-server';
import { HttpEndpoint, jsonRpcError } from './http-endpoint';
import { unread } from './http-messages';
import { peerHeader } from '../../server/peer-headers';
import type { HttpListenOptions, HttpOptions } from './http-options';
import { bodyOf, webRequest, writeResponse } from './node-adapter';
import { requestTarget } from './request-target';
import { SERVER_CARD_WELL_KNOWN } from './server-card';
import { ErrorCode, McpReflectError } from '../../errors';

export type NodeHttpHandler = ((req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>) & {
  /** Closes the endpoint's sessions and per-request handler. */
  close(): Promise<void>;
  /**
   * With `auth`: the paths of the protected resource metadata (`/.well-known/oauth-protected-resource/mcp`,
   * `/.well-known/oauth-protected-resource`), which this handler answers too: route them to it.
   */
  readonly metadataPaths: readonly string[];
  /**
   * With `serverCard`: the paths of the server card (`<endpoint>/server-card` when the endpoint's URL is known,
   * and `/.well-known/mcp/server-card`), which this handler answers too: route them to it.
   */
  readonly serverCardPaths: readonly string[];
  /**
   * With `auth.server`: the authorization server's paths (`/.well-known/oauth-authorization-server`,
   * `/.well-known/openid-configuration`, and every path under `/oauth/`), which this handler answers too.
   */
  readonly authorizationServer?: { readonly paths: readonly string[]; readonly prefix: string };
};

/** A `(req, res)` handler for node:http and Express, serving the MCP endpoint at whatever path it is mounted. */
export function createNodeHandler(serving: HttpServing, options: HttpOptions, logger: ServerLogger, endpointUrl?: string): NodeHttpHandler {
  const endpoint = new HttpEndpoint(serving, options, logger, endpointUrl);
  const { writeTimeoutMs } = endpoint.limits;
  const { authorizationServer } = endpoint;
  // A body parsed by a framework before us (Express's express.json() sets req.body) is used as is.
  // Express passes `next` as the third argument: only a non-function is a parsed body.
  const serve = async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
    // A target or Host that cannot make a request URL (a port past 65535, `http://[`): 400, before anything else.
    const target = requestTarget(req.url, req.headers.host);
    if (typeof target === 'string') return badRequest(res, target);
    if (authorizationServer?.handles(target.pathname)) {
      const remote = req.socket.remoteAddress;
      const request = webRequest(req, target, new AbortController().signal, remote ? { [peerHeader()]: remote } : undefined);
      const refused = endpoint.refuseForAuthorization(request);
      if (refused) return writeResponse(res, unread(refused), endpoint.pendingFor(undefined), writeTimeoutMs, request.signal, false);
      return authorizationServer.handle(req, res, endpoint.clientOf(request));
    }
    // Methods a web Request cannot carry (fetch forbids them): no MCP request uses them.
    if (FORBIDDEN_METHODS.has(req.method ?? '')) {
      res.writeHead(405, { allow: 'GET, POST, DELETE', 'content-type': 'application/json', connection: 'close' });
      return void res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method Not Allowed.' }, id: null }));
    }
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    let response: Response;
    let client: string | undefined;
    try {
      // The connection's remote address reaches the endpoint (per-client bounds) under a header no client can name.
      const remote = req.socket.remoteAddress;
      const request = webRequest(req, target, abort.signal, remote ? { [peerHeader()]: remote } : undefined);
      client = endpoint.clientOf(request);
      const body = (typeof parsedBody === 'function' ? undefined : parsedBody) ?? (req as IncomingMessage & { body?: unknown }).body;
      const auth = (req as IncomingMessage & { auth?: AuthInfo }).auth;
      response = await endpoint.fetch(request, { client, ...(body !== undefined ? { parsedBody: body } : { body: bodyOf(req) }), ...(auth ? { authInfo: auth } : {}) });
    } catch (error) {
      logger.warn(`HTTP: ${error instanceof Error ? error.message : String(error)}`);
      response = jsonRpcError(500, -32603, 'Internal server error.');
    }
    await writeResponse(res, response, endpoint.pendingFor(client), writeTimeoutMs, abort.signal, req.method === 'POST');
  };
  const handler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) =>
    // Nothing a request does may reject unheard: that would end the process.
    serve(req, res, parsedBody).catch((error: unknown) => {
      logger.warn(`HTTP: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) badRequest(res, 'Bad Request.');
      else res.destroy();
    });
  return Object.assign(handler, {
    close: () => endpoint.close(),
    metadataPaths: endpoint.metadataPaths,
    serverCardPaths: endpoint.serverCardPaths,
    ...(authorizationServer ? { authorizationServer: { paths: authorizationServer.paths, prefix: OAUTH_PREFIX } } : {}),
  });
}

const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

function badRequest(res: ServerResponse, message: string): void {
  res.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Why the server could not bind `host:port`, naming the address and the fix; Node's error (its `code`, e.g.
 * `EADDRINUSE`) is the cause. Nothing of the server is left: it never bound.
 */
function listenFailure(error: Error & { code?: string }, host: string, port: number): McpReflectError {
  const address = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const [why, fix] =
    error.code === 'EADDRINUSE'
      ? ['the port is in use (EADDRINUSE)', 'stop the process that holds it, or listen on another port (port: 0 picks a free one).']
      : error.code === 'EADDRNOTAVAIL'
        ? [`no network interface of this machine has the address ${bare} (EADDRNOTAVAIL)`, "give an address of this machine, e.g. host: '127.0.0.1' (this machine only) or '0.0.0.0' (every interface)."]
        : error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN'
          ? [`the host name '${bare}' does not resolve (${error.code})`, "give an address of this machine, or a name that resolves to one, e.g. host: '127.0.0.1'."]
          : error.code === 'EACCES'
            ? [`this process may not bind it (EACCES)`, 'listen on a port above 1023, or give the process the right to bind low ports.']
            : [error.message, 'check the host and port given to listen().'];
  return new McpReflectError(ErrorCode.ListenFailed, `Cannot listen on ${address}: ${why}.\nFix: ${fix}`, { cause: error });
}

/** A bound HTTP server: its URL, and how to stop it. */
export interface HttpListener {
  readonly url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Binds the endpoint to host:port (port 0 picks a free one) and resolves once the port is bound; rejects on
 * EADDRINUSE and other listen errors. On a loopback bind, Host and Origin are checked against loopback
 * names unless allowedHosts / allowedOrigins say otherwise. `GET /healthz` answers 200 while serving.
 */
export async function listenHttp(serving: HttpServing, options: HttpListenOptions, logger: ServerLogger): Promise<HttpListener> {
  const listener = await listenHttpEndpoints([{ serving, options, logger }], options);
  return { url: listener.urls[0], close: () => listener.close() };
}

/** One endpoint of a shared HTTP server: what HTTP needs of an application, its HTTP options and path. */
export interface HttpEndpointSpec {
  readonly serving: HttpServing;
  readonly options: HttpOptions & { readonly path?: string };
  readonly logger: ServerLogger;
}

/**
 * Several MCP endpoints (one per application, each with its own HTTP options and auth) on one HTTP server:
 * a request goes to the endpoint whose path (or protected resource metadata path) it names. Paths must differ.
 */
export async function listenHttpEndpoints(
  endpoints: readonly HttpEndpointSpec[],
  options: Pick<HttpListenOptions, 'host' | 'port' | 'requestTimeoutMs' | 'headersTimeoutMs'>,
): Promise<{ readonly urls: readonly string[]; close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  const loopback = LOOPBACK.has(host);
  const paths = endpoints.map((e) => e.options.path ?? '/mcp');
  const twice = paths.find((path, i) => paths.indexOf(path) !== i);
  if (twice !== undefined) throw new Error(`Cannot serve two MCP endpoints at ${twice} on one HTTP server: give each its own path.`);
  // Built once the port is bound: its URL is the default resource identifier of `auth`.
  const routes = new Map<string, NodeHttpHandler>();
  /** The endpoint whose authorization server (`auth.server`) answers `/oauth/*`: one per HTTP server. */
  let oauthRoute: NodeHttpHandler | undefined;
  let handlers: NodeHttpHandler[] = [];
  let closing = false;
  // Slow clients are cut early: headers within 10 s, the whole request within 30 s (Node's defaults are 60 s
  // and 5 minutes, checked every 30 s), checked every second.
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const timeouts = {
    headersTimeout: Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout || Infinity),
    requestTimeout,
    connectionsCheckingInterval: 1_000,
  };
  const server: NodeServer = createServer(timeouts, (req, res) => {
    const target = requestTarget(req.url, req.headers.host);
    if (typeof target === 'string') return badRequest(res, target);
    if (handlers.length === 0) return void res.writeHead(503, { 'retry-after': '1' }).end();
    const handler = routes.get(target.pathname) ?? (target.pathname.startsWith(OAUTH_PREFIX) ? oauthRoute : undefined);
    if (handler) return void handler(req, res);
    if (target.pathname === '/healthz' && req.method === 'GET') {
      res.writeHead(closing ? 503 : 200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ status: closing ? 'closing' : 'ok' }));
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    const where = paths.length === 1 ? `the MCP endpoint is ${paths[0]}` : `the MCP endpoints are ${paths.join(', ')}`;
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Not found: ${where}` }, id: null }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenFailure(error, host, options.port ?? 3000)));
    server.listen(options.port ?? 3000, host.replace(/^\[(.*)\]$/, '$1'), () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const urls = paths.map((path) => `http://${shown}:${port}${path}`);
  const built: NodeHttpHandler[] = [];
  try {
    endpoints.forEach(({ serving, options: http, logger }, i) => {
      const handler = createNodeHandler(
        serving,
        {
          ...http,
          allowedHosts: http.allowedHosts ?? (loopback ? localhostAllowedHostnames() : undefined),
          allowedOrigins: http.allowedOrigins ?? (loopback ? localhostAllowedOrigins() : undefined),
        },
        logger,
        urls[i],
      );
      built.push(handler);
      if (handler.authorizationServer) {
        if (oauthRoute) throw new Error('Cannot serve two authorization servers (auth.server) on one HTTP server: give the other endpoint its own port.');
        oauthRoute = handler;
      }
      for (const path of [paths[i], ...handler.metadataPaths, ...handler.serverCardPaths, ...(handler.authorizationServer?.paths ?? [])]) {
        // The well-known card path is the first card's on a shared server; every card keeps its `<endpoint>/server-card`.
        if (path === SERVER_CARD_WELL_KNOWN && routes.has(path)) continue;
        if (routes.has(path) && routes.get(path) !== handler) throw new Error(`Cannot serve two MCP endpoints whose paths meet at ${path}: give them other paths.`);
        routes.set(path, handler);
      }
    });
  } catch (error) {
    await Promise.all(built.map((h) => h.close()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  handlers = built;
  return {
    urls,
    close: async () => {
      closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Drains: new requests get 503 (Connection: close), calls in progress finish (up to drainTimeoutMs),
      // then sessions end: open SSE streams close, calls still running are aborted.
      await Promise.all(built.map((h) => h.close()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), 2_000);
      await stopped;
      clearTimeout(timer);
    },
  };
}
