import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localhostAllowedHostnames, localhostAllowedOrigins, type AuthInfo } from '@modelcontextprotocol/server';
import type { ServerLogger } from '../../invocation';
import type { ServerFactory } from '../../server/server-factory';
import { HttpEndpoint, jsonRpcError } from './http-endpoint';
import { PEER_HEADER } from '../../server/peer-headers';
import type { HttpListenOptions, HttpOptions } from './http-options';
import { bodyOf, webRequest, writeResponse } from './node-adapter';
import { requestTarget } from './request-target';

export type NodeHttpHandler = ((req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>) & {
  /** Closes the endpoint's sessions and per-request handler. */
  close(): Promise<void>;
  /**
   * With `auth`: the paths of the protected resource metadata (`/.well-known/oauth-protected-resource/mcp`,
   * `/.well-known/oauth-protected-resource`), which this handler answers too: route them to it.
   */
  readonly metadataPaths: readonly string[];
};

/** A `(req, res)` handler for node:http and Express, serving the MCP endpoint at whatever path it is mounted. */
export function createNodeHandler(factory: ServerFactory, options: HttpOptions, logger: ServerLogger, endpointUrl?: string): NodeHttpHandler {
  const endpoint = new HttpEndpoint(factory, options, logger, endpointUrl);
  const { writeTimeoutMs } = endpoint.limits;
  // A body parsed by a framework before us (Express's express.json() sets req.body) is used as is.
  // Express passes `next` as the third argument: only a non-function is a parsed body.
  const serve = async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
    // A target or Host that cannot make a request URL (a port past 65535, `http://[`): 400, before anything else.
    const target = requestTarget(req.url, req.headers.host);
    if (typeof target === 'string') return badRequest(res, target);
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
      const request = webRequest(req, target, abort.signal, remote ? { [PEER_HEADER]: remote } : undefined);
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
  return Object.assign(handler, { close: () => endpoint.close(), metadataPaths: endpoint.metadataPaths });
}

const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

function badRequest(res: ServerResponse, message: string): void {
  res.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
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
export async function listenHttp(factory: ServerFactory, options: HttpListenOptions, logger: ServerLogger): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const loopback = LOOPBACK.has(host);
  // Built once the port is bound: its URL is the default resource identifier of `auth`.
  let handler: NodeHttpHandler | undefined;
  let metadataPaths: ReadonlySet<string> = new Set();
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
    if (!handler) return void res.writeHead(503, { 'retry-after': '1' }).end();
    if (target.pathname === path || metadataPaths.has(target.pathname)) return void handler(req, res);
    if (target.pathname === '/healthz' && req.method === 'GET') {
      res.writeHead(closing ? 503 : 200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ status: closing ? 'closing' : 'ok' }));
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Not found: the MCP endpoint is ${path}` }, id: null }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, host.replace(/^\[(.*)\]$/, '$1'), () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const endpointUrl = `http://${shown}:${port}${path}`;
  try {
    handler = createNodeHandler(
      factory,
      {
        ...options,
        allowedHosts: options.allowedHosts ?? (loopback ? localhostAllowedHostnames() : undefined),
        allowedOrigins: options.allowedOrigins ?? (loopback ? localhostAllowedOrigins() : undefined),
      },
      logger,
      endpointUrl,
    );
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  metadataPaths = new Set(handler.metadataPaths);
  const bound = handler;
  return {
    url: endpointUrl,
    close: async () => {
      closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Drains: new requests get 503 (Connection: close), calls in progress finish (up to drainTimeoutMs),
      // then sessions end: open SSE streams close, calls still running are aborted.
      await bound.close();
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), 2_000);
      await stopped;
      clearTimeout(timer);
    },
  };
}
