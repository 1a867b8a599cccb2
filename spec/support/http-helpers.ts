import { request as httpRequest, ServerResponse } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request (node:http, so Host and other headers are sent exactly as given), from `localAddress` when given. */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string },
): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? 'POST',
        headers: options.headers,
        agent: false,
        // Another loopback address (127.0.0.x) is another client.
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export const JSON_AND_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export function initializeBody(id = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
  });
}

/** Opens a 2025 session with raw requests; returns its id. */
export async function openSession(url: string): Promise<string> {
  const init = await rawRequest(url, { headers: JSON_AND_SSE, body: initializeBody() });
  const id = init.headers['mcp-session-id'] as string;
  await rawRequest(url, {
    headers: { ...JSON_AND_SSE, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return id;
}

/** The JSON-RPC messages of an SSE body (or the JSON body itself). */
export function messagesOf(body: string): any[] {
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return [JSON.parse(trimmed)].flat();
  return trimmed
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)));
}

/** A GET on an SSE stream: its status and what arrived within `ms`, then the connection is dropped. */
export function peek(url: string, headers: Record<string, string>, ms = 300): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'GET', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      const done = () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      };
      res.on('end', done);
      setTimeout(done, ms);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Resolves once an HTTP server of this process answers a GET with an event stream: a 2025 session's standing
 * GET stream is registered by then, so a notification sent after it reaches the client. Watched on the server
 * side because the client cannot see it: the SDK's Node adapter writes the head at once, but Node sends it
 * with the first event, so the client's GET is not answered until something is sent on the stream.
 * Call `restore()` when done.
 */
export function serverOpensGetStream(): { opened: Promise<void>; restore(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const writeHead = ServerResponse.prototype.writeHead;
  const spy = jest.spyOn(ServerResponse.prototype, 'writeHead').mockImplementation(function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((arg): arg is Record<string, unknown> => typeof arg === 'object' && arg !== null && !Array.isArray(arg));
    const type = headers?.['content-type'] ?? headers?.['Content-Type'];
    if (this.req?.method === 'GET' && typeof type === 'string' && type.startsWith('text/event-stream')) open();
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  });
  return { opened, restore: () => spy.mockRestore() };
}

/**
 * A GET on an SSE stream, read until `done(messages)` holds for the JSON-RPC messages received (or the server
 * ends the response); then the connection is dropped. Waits for what the spec expects rather than for a fixed
 * time; past `timeoutMs` it fails, naming what had arrived.
 */
export function readStream(url: string, headers: Record<string, string>, done: (messages: any[]) => boolean, timeoutMs = 10_000): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    let body = '';
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'GET', headers, agent: false }, (res) => {
      res.setEncoding('utf8');
      const finish = () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      };
      res.on('data', (chunk: string) => {
        body += chunk;
        const complete = body.slice(0, body.lastIndexOf('\n') + 1); // whole lines only
        if (done(messagesOf(complete))) finish();
      });
      res.on('end', finish);
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`Timed out after ${timeoutMs} ms reading the stream; it had sent:\n${body}`));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end();
  });
}
