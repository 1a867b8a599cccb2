import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { McpFactory } from 'mcp-reflect';
import { WeatherModule } from '../weather/weather.module';
import type { RunningSample } from './node-http';

/**
 * Mounts the weather application at /mcp in an Express 5 app on 127.0.0.1 (port 0 picks a free port).
 * The handler reads the request body itself: register it before any `express.json()` that would consume it.
 */
export async function start(port = 3000): Promise<RunningSample> {
  const app = await McpFactory.create(WeatherModule);
  const mcp = app.createHttpHandler({ allowedHosts: ['127.0.0.1', 'localhost'], allowedOrigins: ['127.0.0.1', 'localhost'] });
  const web = express();
  web.all('/mcp', mcp);
  web.get('/', (_req, res) => void res.type('text/plain').send('The MCP endpoint is /mcp\n'));
  const server = await new Promise<ReturnType<typeof web.listen>>((resolve, reject) => {
    const listening = web.listen(port, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
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
      console.error(`weather MCP server (Express) ready at ${url}`);
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void close().then(() => process.exit(0)));
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
