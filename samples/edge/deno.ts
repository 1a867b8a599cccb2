// Deno: deno run --allow-net --allow-env --allow-read <bundle of this file> (docs/runtimes.md). PORT=0 picks a free port.
import { createHandler } from './app';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): unknown;
};

void createHandler().then((handler) =>
  Deno.serve(
    { hostname: '127.0.0.1', port: Number(Deno.env.get('PORT') ?? 3000), onListen: ({ port }) => console.error(`LISTENING ${port}`) },
    (request, info) => handler(request, { remoteAddress: info.remoteAddr.hostname }),
  ),
);
