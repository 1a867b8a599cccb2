import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpFactory } from 'mcp-reflect';
import { WeatherModule } from '../weather/weather.module';

/** A running sample server: where it answers, and how to stop it. */
export interface RunningSample {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Mounts the weather application under /mcp in a plain node:http server on 127.0.0.1 (port 0 picks a free
 * port). Your server owns the socket, so Host checking is yours to switch on: `createHttpHandler()` has no
 * bind address to infer loopback defaults from.
 */
export async function start(port = 3000): Promise<RunningSample> {
  const app = await McpFactory.create(WeatherModule);
  const mcp = app.createHttpHandler({ allowedHosts: ['127.0.0.1', 'localhost'], allowedOrigins: ['127.0.0.1', 'localhost'] });
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname === '/mcp') return void mcp(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the MCP endpoint is /mcp\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return {
    url,
    close: async () => {
      await app.close(); // ends sessions and open SSE streams, aborts in-flight calls, runs shutdown hooks
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

if (require.main === module) {
  start(Number(process.env.PORT ?? 3000))
    .then(({ url, close }) => {
      console.error(`weather MCP server (node:http) ready at ${url}`);
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void close().then(() => process.exit(0)));
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
