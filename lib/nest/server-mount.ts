import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { NodeHttpHandler } from '../transports';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * `http: { mount: 'server' }`: the endpoint answers from the Node HTTP server's own `request` listener, ahead of
 * the framework. Requests for its paths (the route, its trailing-slash form, and with `auth` the protected
 * resource metadata and the authorization server's paths) go to the handler; every other request goes to the
 * listeners the server had (Express's or Fastify's), in order, as before.
 *
 * The framework's listeners stay registered: each is wrapped in place (the first one answers the endpoint's paths,
 * every one passes the others on), and each wrapper carries its original as `listener`, as Node's `once()` wrappers
 * do, so `server.listeners('request')` still shows the framework's own functions and
 * `server.removeListener('request', original)` still removes one. Listeners added later are left alone.
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
  const cards = handler.serverCardPaths.length > 0 ? [...handler.serverCardPaths, `${route}/server-card`] : [];
  const exact = new Set([route, `${route}/`, ...handler.metadataPaths, ...cards, ...(handler.authorizationServer?.paths ?? [])]);
  const prefix = handler.authorizationServer?.prefix;
  const claims = (req: IncomingMessage): boolean => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    return exact.has(pathname) || (prefix !== undefined && pathname.startsWith(prefix));
  };
  const framework = server.rawListeners('request') as RequestListener[];
  if (framework.length === 0) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void (claims(req) && handler(req, res)));
    return;
  }
  // Node keeps no way to replace a listener where it stands: those of the framework are taken off one by one (exactly
  // those, nothing else) and put back wrapped, in their order.
  for (const listener of framework) server.removeListener('request', listener);
  framework.forEach((listener, index) => {
    const wrapped = function (this: Server, req: IncomingMessage, res: ServerResponse) {
      if (!claims(req)) return void listener.call(this, req, res);
      if (index === 0) void handler(req, res);
    };
    // What `listeners()` unwraps and `removeListener(original)` matches, as for Node's own `once()` wrappers.
    (wrapped as { listener?: unknown }).listener = (listener as { listener?: unknown }).listener ?? listener;
    server.on('request', wrapped);
  });
}
