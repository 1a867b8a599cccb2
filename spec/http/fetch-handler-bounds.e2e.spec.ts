import 'reflect-metadata';
import { serve, type ServerType } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { Injectable, McpFactory, McpModule, Module, Param, Tool, type FetchHandler, type FetchHandlerOptions, type McpApplication } from 'mcp-reflect';
import { JSON_AND_SSE, initializeBody, messagesOf, rawRequest } from '../support/http-helpers';
import { startServerProcess } from '../support/server-process';
import { waitFor } from '../support/waiting';

/**
 * Issue 38, item 11: `createFetchHandler()` answered a foreign Host or Origin with 200 where `listen()` answers
 * 403, and held the answers its clients did not read without bound (24 sockets × 15 MiB = 360 MB, where the Node
 * handler holds 18 MB and answers 429). The handler is served here as Hono on Node serves it
 * (`@hono/node-server`, the client's address from the socket, as docs/runtimes.md shows).
 */

@Injectable()
class FetchTools {
  @Tool()
  add(@Param() a: number, @Param() b: number): number {
    return a + b;
  }
}

function fetchModule() {
  @Module({ imports: [McpModule.forRoot({ name: 'fetch-bounds', version: '1.0.0' })], providers: [FetchTools] })
  class FetchBoundsModule {}
  return FetchBoundsModule;
}

const MIB = 1024 * 1024;
const addCall = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });

/** Serves `handler` with @hono/node-server on 127.0.0.1, the client's address from its socket (or none). */
async function honoServer(handler: FetchHandler, withAddress = true): Promise<{ url: string; server: ServerType }> {
  const server = serve({
    fetch: (request, env) => handler(request, withAddress && 'incoming' in env ? { remoteAddress: env.incoming.socket.remoteAddress } : {}),
    hostname: '127.0.0.1',
    port: 0,
    overrideGlobalObjects: false,
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

const close = (server: ServerType | Server) =>
  new Promise<void>((resolve) => {
    (server as Server).closeAllConnections?.();
    server.close(() => resolve());
  });

describe('createFetchHandler(): Host and Origin (issue 38, 11)', () => {
  let app: McpApplication;
  const servers: (ServerType | Server)[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await close(server);
    await app.close();
  });

  /** A raw POST of `body` with `headers` (Host as given): status and JSON-RPC error. */
  const send = async (url: string, headers: Record<string, string>, body = initializeBody()) => {
    const answer = await rawRequest(url, { headers: { ...JSON_AND_SSE, ...headers }, body });
    return { status: answer.status, error: answer.status >= 400 ? JSON.parse(answer.body).error : undefined };
  };

  it('refuses a foreign Host and Origin over loopback with 403, as listen() does', async () => {
    app = await McpFactory.create(fetchModule());
    const fetched = await honoServer(app.createFetchHandler({ path: '/mcp' }));
    servers.push(fetched.server);
    await app.listen({ transport: 'http', port: 0 });
    const listened = await app.getUrl();
    for (const url of [fetched.url, listened]) {
      const { host } = new URL(url);
      expect(await send(url, { host: 'evil.example.com' })).toEqual({ status: 403, error: { code: -32000, message: 'Invalid Host: evil.example.com' } });
      expect(await send(url, { host, origin: 'http://evil.example.com' })).toEqual({ status: 403, error: { code: -32000, message: 'Invalid Origin: evil.example.com' } });
      // A loopback name, with or without a loopback Origin, is served.
      expect((await send(url, { host, origin: 'http://localhost:5173' })).status).toBe(200);
      expect((await send(url, { host: `localhost:${new URL(url).port}` })).status).toBe(200);
    }
  });

  it('checks createHttpHandler() in a server of your own the same way, and takes allowedHosts as given', async () => {
    app = await McpFactory.create(fetchModule());
    const mine = createServer(app.createHttpHandler({}));
    servers.push(mine);
    await new Promise<void>((resolve) => mine.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(mine.address() as AddressInfo).port}/mcp`;
    expect(await send(url, { host: 'evil.example.com' })).toMatchObject({ status: 403 });
    // Behind a proxy on this machine that keeps the public Host: the names are given, and only they pass.
    const proxied = await honoServer(app.createFetchHandler({ path: '/mcp', allowedHosts: ['mcp.example.com'] }));
    servers.push(proxied.server);
    expect((await send(proxied.url, { host: 'mcp.example.com' })).status).toBe(200);
    expect(await send(proxied.url, { host: 'evil.example.com' })).toMatchObject({ status: 403 });
  });

  it('warns once when the runtime gives no client address', async () => {
    app = await McpFactory.create(fetchModule());
    const handler = app.createFetchHandler({ path: '/mcp', stateless: true });
    const bare = await honoServer(handler, false);
    servers.push(bare.server);
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    try {
      for (let i = 0; i < 3; i++) expect((await send(bare.url, {}, addCall)).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    const warnings = written.filter((line) => line.includes('without the client'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("createFetchHandler() got a request without the client's address: no per-client bound applies to it");
  });
});

describe('createFetchHandler(): answers a client never reads (issue 38, 11)', () => {
  it('bounds what slow readers make a 160 MB server hold, refusing their next calls with 429 while another client is served', async () => {
    const options: FetchHandlerOptions = { stateless: true, writeTimeoutMs: 2_000 };
    const server = await startServerProcess('hostile-fetch-app.ts', 160, { HTTP_OPTIONS: JSON.stringify(options) });
    const sockets: Socket[] = [];
    try {
      const target = new URL(server.url);
      const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: { mib: 15 } } });
      // 24 sockets from one client ask for a 15 MiB answer each and never read.
      for (let i = 0; i < 24; i++) {
        const socket = connect({ host: target.hostname, port: Number(target.port), localAddress: '127.0.0.2' });
        socket.on('error', () => undefined);
        socket.pause();
        socket.write(`POST ${target.pathname} HTTP/1.1\r\nhost: ${target.host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${call.length}\r\n\r\n${call}`);
        sockets.push(socket);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(server.alive()).toBe(true);
      const held = await server.memory();
      expect(held.heap + held.buffers).toBeLessThan(150 * MIB);
      // The same client's next call is refused while its answers wait; another client is served.
      const refused = await rawRequest(server.url, { headers: JSON_AND_SSE, body: addCall, localAddress: '127.0.0.2' });
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body).error.message).toContain('Too many unread answers');
      const other = await rawRequest(server.url, { headers: JSON_AND_SSE, body: addCall, localAddress: '127.0.0.3' });
      expect(other.status).toBe(200);
      expect(messagesOf(other.body)[0].result.content).toEqual([{ type: 'text', text: '5' }]);
      // Answers that made no progress for 2 s are dropped, their connections ended.
      const freed = await waitFor(
        async () => {
          const memory = await server.memory();
          return memory.heap + memory.buffers < 40 * MIB ? memory : undefined;
        },
        { timeout: 20_000, what: 'the stalled answers to be dropped' },
      );
      expect(freed.heap + freed.buffers).toBeLessThan(40 * MIB);
      expect((await rawRequest(server.url, { headers: JSON_AND_SSE, body: addCall, localAddress: '127.0.0.2' })).status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
      await server.stop();
    }
  }, 90_000);
});
