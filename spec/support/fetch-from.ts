import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A `fetch` whose connections come from `localAddress` (another loopback address, 127.0.0.x, is another client to
 * the server; IPv6 URLs such as `http://[::1]:3000/mcp` too), for the SDK client's transport (`new StreamableHTTPClientTransport(url, { fetch: fetchFrom(a) })`).
 * node:http underneath, the answer streamed as it arrives (SSE), the request aborted with its signal.
 */
export function fetchFrom(localAddress?: string): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = new Request(input, init);
    const target = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    return new Promise<Response>((resolve, reject) => {
      const req = httpRequest(
        { host: target.hostname.replace(/^\[(.*)\]$/, '$1'), port: target.port, path: `${target.pathname}${target.search}`, method: request.method, headers, ...(localAddress ? { localAddress } : {}), agent: false, signal: request.signal },
        (res) => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
          const status = res.statusCode ?? 500;
          const stream = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          resolve(new Response(stream, { status, headers: answer }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}
