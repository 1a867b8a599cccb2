import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PendingBytes } from './http-limits';
import { meterBody } from './response-meter';
import type { BodySource } from './request-body';
import type { RequestTarget } from './request-target';

/**
 * Between node:http and the web-standard endpoint. Written here rather than taken from
 * `@modelcontextprotocol/node`'s `toNodeHandler` because the endpoint needs what that adapter does not do: look
 * at the headers before any byte of the body is read (auth, admission), count a body's bytes as they arrive, and
 * bound what a slow reader makes the server hold (answers written in slices, each waiting for the last to drain,
 * and a write that makes no progress for `writeTimeoutMs` ends the connection).
 */

/** The request as the endpoint reads it: headers and target, no body (that comes from `bodyOf`). */
export function webRequest(req: IncomingMessage, target: RequestTarget, signal: AbortSignal, extra?: Readonly<Record<string, string>>): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.charCodeAt(0) === 0x3a) continue; // HTTP/2 pseudo-headers
    headers.append(name, raw[i + 1]);
  }
  // An absolute-form target names the authority (RFC 9112 §3.2.2): it is what Host checks read.
  if (headers.get('host') !== target.authority) headers.set('host', target.authority);
  if (extra) for (const name in extra) headers.set(name, extra[name]);
  return new Request(`http://${target.authority}${target.path}`, { method: req.method ?? 'GET', headers, signal });
}

/** The body of a Node request, read when the endpoint asks (after auth and admission), never twice. */
export function bodyOf(req: IncomingMessage): BodySource {
  const length = Number(req.headers['content-length']);
  return {
    ...(Number.isFinite(length) ? { declared: length } : {}),
    start(sink) {
      // Read already (by middleware that kept nothing of it): no event will come.
      if (req.readableEnded) {
        queueMicrotask(() => sink.end());
        return () => undefined;
      }
      const data = (chunk: Buffer) => {
        if (!sink.data(chunk)) detach();
      };
      const end = () => {
        detach();
        sink.end();
      };
      const error = (cause: unknown) => {
        detach();
        sink.error(cause);
      };
      const aborted = () => error(new Error('The client went away while sending the body.'));
      const detach = () => {
        req.off('data', data);
        req.off('end', end);
        req.off('error', error);
        req.off('aborted', aborted);
      };
      req.on('data', data);
      req.on('end', end);
      req.on('error', error);
      req.on('aborted', aborted);
      return detach;
    },
  };
}

/**
 * Writes the endpoint's answer to the Node response: headers, then the body in slices (meterBody), each after the
 * socket took the last (the unread bytes counted on `pending`); a reader that takes nothing for `writeTimeoutMs`
 * loses its connection. Resolves once the answer is written or the connection is gone. `call`: the answer to a
 * POST, read to its end even when the client went away (a call holds its place until it answered; what it still
 * sends is dropped), where other streams are cancelled at once.
 */
export async function writeResponse(res: ServerResponse, response: Response, pending: PendingBytes, writeTimeoutMs: number, signal: AbortSignal, call: boolean): Promise<void> {
  try {
    await write(res, meterBody(response, pending, { call }), writeTimeoutMs, signal);
  } finally {
    // Every answer gives back what it counted for its client, a bodiless one too (202 to a notification).
    pending.release();
  }
}

async function write(res: ServerResponse, response: Response, writeTimeoutMs: number, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  // A request whose body was not read (refused before it) cannot keep its connection: the rest of the body is in the way.
  if (response.headers.get('connection') === 'close') res.shouldKeepAlive = false;
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  // A standing GET stream may carry no event for long: the client sees it open now.
  if (res.req.method === 'GET') res.flushHeaders();
  const reader = response.body.getReader();
  // The client went away: the meter drops what it held (and reads a call's answer on to its end).
  const stop = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (signal.aborted || res.destroyed) break;
      if (!res.write(value) && !(await drained(res, writeTimeoutMs, signal))) {
        // No progress (or the client went away): the connection goes, and with it what it held.
        if (!res.destroyed) res.destroy();
        break;
      }
    }
  } catch {
    // The answer's stream failed mid-way: end what was sent.
  } finally {
    signal.removeEventListener('abort', stop);
    stop();
  }
  if (!res.destroyed) res.end();
}

/** Resolves true once the response drained, false when it did not within `ms` or the connection went away. */
function drained(res: ServerResponse, ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    res.on('drain', onDrain);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
