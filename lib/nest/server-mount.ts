import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { NodeHttpHandler } from '../transports';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * `http: { mount: 'server' }`: the endpoint answers from the Node HTTP server's own `request` listener, ahead of
 * the framework. Requests for its paths (the route, its trailing-slash form, and with `auth` the protected
 * resource metadata and the authorization server's paths) go to the handler; every other request goes to the
 * listeners the server had (Express's or Fastify's), in order, as before.
 */
export function mountAhead(server: Server, path: string, handler: NodeHttpHandler): void {
  if (typeof server?.listeners !== 'function') {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      "Cannot serve the MCP endpoint with http.mount 'server': the Nest application's HTTP adapter gives no Node HTTP server (getHttpServer()).\n" +
        "Fix: use @nestjs/platform-express or @nestjs/platform-fastify, or serve the endpoint as a route (mount: 'route', the default).",
    );
  }
  // As Nest normalizes a route: one leading slash, no trailing one ('mcp/' is '/mcp').
  const route = `/${path.replace(/^\/+|\/+$/g, '')}`;
  const exact = new Set([route, `${route}/`, ...handler.metadataPaths, ...(handler.authorizationServer?.paths ?? [])]);
  const prefix = handler.authorizationServer?.prefix;
  const framework = server.listeners('request') as RequestListener[];
  const dispatch: RequestListener = function (this: Server, req, res) {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    if (exact.has(pathname) || (prefix !== undefined && pathname.startsWith(prefix))) return void handler(req, res);
    for (const listener of framework) listener.call(this, req, res);
  };
  server.removeAllListeners('request');
  server.on('request', dispatch);
}
