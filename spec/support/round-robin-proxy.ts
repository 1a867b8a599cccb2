import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small round-robin HTTP proxy on loopback (test code): each request goes to the next instance; an
 * instance that refuses the connection is skipped. Responses, SSE streams included, are piped through.
 */
export interface RoundRobinProxy {
  readonly url: string;
  /** How many requests each target served. */
  readonly served: number[];
  close(): Promise<void>;
}

export async function startProxy(targets: readonly URL[], path = '/mcp'): Promise<RoundRobinProxy> {
  let next = 0;
  const served = targets.map(() => 0);
  const server: Server = createServer(async (req, res) => {
    const body = await read(req);
    for (let attempt = 0; attempt < targets.length; attempt++) {
      const index = next++ % targets.length;
      const target = targets[index];
      try {
        const upstream = await forward(target, req, body);
        served[index]++;
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
        res.on('close', () => upstream.destroy());
        return;
      } catch {
        // refused: the next instance
      }
    }
    res.writeHead(502).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function forward(target: URL, req: IncomingMessage, body: Buffer): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: target.host };
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers, agent: false }, resolve);
    upstream.on('error', reject);
    upstream.end(body);
  });
}
