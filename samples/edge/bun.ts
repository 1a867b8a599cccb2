// Bun: bun run samples/edge/bun.ts (or a bundle of it: docs/runtimes.md). PORT=0 picks a free port.
import { createHandler } from './app';

declare const Bun: {
  serve(options: { hostname: string; port: number; fetch(request: Request, server: { requestIP(request: Request): { address: string } | null }): Promise<Response> }): { port: number };
};

void createHandler().then((handler) => {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: Number(process.env.PORT ?? 3000),
    fetch: (request, server) => handler(request, { remoteAddress: server.requestIP(request)?.address }),
  });
  console.error(`LISTENING ${server.port}`);
});
