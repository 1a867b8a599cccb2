import { createServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net';

/** A port held by the spec on 127.0.0.1, for an application's listen() to find in use. */
export function holdPort(): Promise<Server> {
  const server = createNetServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** A server of OpenAPI documents that are slow to read (spec/host/failed-bootstrap.spec.ts, spec/nest/nest-failed-bootstrap.spec.ts). */
export interface SlowDocuments {
  /** Its origin: `/never` is never answered, `/dribble` answers a byte every 100 ms without end, `/missing` is 404. */
  readonly url: string;
  stop(): Promise<void>;
}

export async function serveSlowDocuments(): Promise<SlowDocuments> {
  const dribbling = new Set<ServerResponse>();
  const timer = setInterval(() => {
    for (const res of dribbling) res.write(' ');
  }, 100);
  const server: HttpServer = createServer((req, res) => {
    if (req.url === '/missing') return void res.writeHead(404).end();
    if (req.url === '/dribble') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      dribbling.add(res);
      res.on('close', () => dribbling.delete(res));
    }
    // `/never`: the request is kept, never answered.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => {
      clearInterval(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
