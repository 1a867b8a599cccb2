import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { RequestMethod } from '@nestjs/common';
import type { ApplicationConfig } from '@nestjs/core';
import { RoutePathFactory } from '@nestjs/core/router/route-path-factory';
import { BootstrapError, BootstrapErrorCode } from '../errors';

/**
 * On a request of the endpoint route whose body the framework was kept from reading: the headers it was sent
 * with. The endpoint reads its body itself, under its own bounds (per client and in all, in bytes, with the shape
 * checks), after Nest's middleware and guards. A property of the request rather than an entry of a WeakMap: it
 * costs every request of the route one store and one read, not a hash-table entry the young-generation GC must
 * trace (issue 45, item 4).
 */
const DEFERRED = Symbol('mcp-reflect:deferred-headers');
type Deferrable = IncomingMessage & { [DEFERRED]?: IncomingHttpHeaders };

/** What the route reads of Nest's HTTP adapter. */
interface Adapter {
  getType(): string;
  getInstance(): unknown;
}

/** The headers that tell a body parser there is a body: without them, every parser of Express lets the request through unread. */
const FRAMING = ['content-length', 'transfer-encoding'];

/**
 * Keeps the application's body parsers (Nest's, and those of `app.useBodyParser()`) from reading the bodies of
 * the endpoint's route, so that a body is never buffered whole outside the endpoint's bounds. Express: a
 * middleware first in the application's stack hides the body's framing headers from the parsers (the route
 * gives them back). Fastify: a `preParsing` hook hands the content-type parser a stand-in of the route's body
 * and leaves the request stream unread, as Fastify's hooks documentation describes. Other adapters: nothing (a
 * body they parsed is held to the endpoint's bounds when it arrives).
 */
export function deferRouteBodies(adapter: Adapter, paths: readonly string[]): void {
  const type = adapter.getType();
  if (type === 'express') return deferOnExpress(adapter.getInstance() as ExpressApp, paths);
  if (type === 'fastify') return deferOnFastify(adapter.getInstance() as FastifyApp, paths);
}

/**
 * The request as it arrived at the route: for a deferred one, its headers are given back and true is returned
 * (the endpoint reads its body); false when a framework parsed its body.
 */
export function takeDeferred(req: IncomingMessage): boolean {
  const headers = (req as Deferrable)[DEFERRED];
  if (!headers) return false;
  (req as Deferrable)[DEFERRED] = undefined;
  req.headers = headers;
  return true;
}

/**
 * The paths Nest serves the endpoint's route at: its path under the global prefix (unless excluded from it) and
 * the default URI version, as Nest's router computes them for the controller.
 */
export function routePaths(config: ApplicationConfig | undefined, path: string): string[] {
  if (!config) return [normalized(path)];
  const versioningOptions = config.getVersioning();
  const factory = new RoutePathFactory(config as never);
  return factory
    .create(
      { ctrlPath: '', methodPath: path, globalPrefix: config.getGlobalPrefix(), versioningOptions, controllerVersion: versioningOptions?.defaultVersion } as never,
      RequestMethod.ALL,
    )
    .map(normalized);
}

type Middleware = (req: IncomingMessage, res: unknown, next: () => void) => void;
interface ExpressApp {
  use(middleware: Middleware): unknown;
  get(setting: string): unknown;
  readonly router?: { readonly stack?: unknown[] };
}

function deferOnExpress(app: ExpressApp, paths: readonly string[]): void {
  const caseSensitive = app.get('case sensitive routing') === true;
  const wanted = new Set(paths.map((p) => (caseSensitive ? p : p.toLowerCase())));
  // Every request of the application passes here: the common case (a path as Nest registers it) is one lookup,
  // without the regular expression of `normalized()`.
  const isRoute = (url: string): boolean => {
    const query = url.indexOf('?');
    let pathname = query === -1 ? url : url.slice(0, query);
    if (!caseSensitive) pathname = pathname.toLowerCase();
    return wanted.has(pathname) || ((pathname.length === 0 || pathname.charCodeAt(pathname.length - 1) === 0x2f) && wanted.has(normalized(pathname)));
  };
  const defer: Middleware = (req, _res, next) => {
    if (isRoute(req.url ?? '/') && !(req as Deferrable)[DEFERRED]) {
      const headers = req.headers;
      (req as Deferrable)[DEFERRED] = headers;
      const shown: IncomingHttpHeaders = { ...headers };
      for (const name of FRAMING) delete shown[name];
      req.headers = shown;
    }
    next();
  };
  app.use(defer);
  // Express 5's application router (`app.router`): the middleware goes first, ahead of the body parsers Nest
  // registered when the application initialised.
  const stack = app.router?.stack;
  if (!Array.isArray(stack) || (stack.at(-1) as { handle?: unknown } | undefined)?.handle !== defer) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      "Cannot serve the MCP endpoint as a route of this Express application: its router (Express 5's app.router) is not where mcp-reflect can put the endpoint ahead of the body parsers, which would then buffer the endpoint's bodies outside its bounds.\n" +
        "Fix: use @nestjs/platform-express 11 or 12 (Express 5), or serve the endpoint ahead of Express with http: { mount: 'server' }.",
    );
  }
  stack.unshift(stack.pop());
}

interface FastifyRequest {
  readonly raw: IncomingMessage;
  readonly routeOptions?: { readonly url?: string };
}
type PreParsing = (request: FastifyRequest, reply: unknown, payload: Readable, done: (error: Error | null, payload?: Readable) => void) => void;
interface FastifyApp {
  addHook(name: 'preParsing', hook: PreParsing): unknown;
}

function deferOnFastify(app: FastifyApp, paths: readonly string[]): void {
  const wanted = new Set(paths);
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const url = request.routeOptions?.url;
    const declared = Number(request.raw.headers['content-length']);
    if (url === undefined || !wanted.has(normalized(url)) || declared === 0) return done(null, payload);
    (request.raw as Deferrable)[DEFERRED] = request.raw.headers;
    // The parser gets `{}` (which every JSON parser accepts); its length passes for the declared one.
    const standIn = Object.assign(Readable.from([Buffer.from('{}')]), Number.isFinite(declared) ? { receivedEncodedLength: declared } : {});
    done(null, standIn);
  });
}

/** A path as Nest registers a route's: one leading slash, no trailing one. */
function normalized(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed || '/' : `/${trimmed}`;
}
