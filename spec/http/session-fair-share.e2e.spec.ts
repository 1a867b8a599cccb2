import 'reflect-metadata';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, McpFactory, McpModule, Module, Param, Tool, type McpApplication } from 'mcp-reflect';
import { fetchFrom } from '../support/fetch-from';
import { JSON_AND_SSE, initializeBody, rawRequest } from '../support/http-helpers';
import { startServerProcess } from '../support/server-process';

/**
 * Issue 38, item 8: a few addresses filled the session table of a 160 MB server (2,560 sessions from 11
 * addresses), and a client from a twelfth address was refused (503) for the 30-minute idle timeout. A full table
 * now admits a newcomer by ending the least recently used session of the client holding the most (fair share);
 * IPv6 clients count by their /64, an IPv4-mapped address as its IPv4 address. Through real sockets, each
 * client from a loopback address of its own.
 */

@Injectable()
class ShareTools {
  @Tool()
  add(@Param() a: number, @Param() b: number): number {
    return a + b;
  }
}

function shareModule() {
  @Module({ imports: [McpModule.forRoot({ name: 'fair-share', version: '1.0.0' })], providers: [ShareTools] })
  class ShareModule {}
  return ShareModule;
}

const MIB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One POST from `from` on a connection of its own: its status, session id and JSON-RPC error message. */
async function post(url: string, from: string | undefined, headers: Record<string, string>, body: string): Promise<{ status: number; id?: string; message?: string }> {
  const answer = await fetchFrom(from)(url, { method: 'POST', headers: { ...JSON_AND_SSE, ...headers }, body });
  const text = await answer.text();
  const message = answer.status >= 400 && text.startsWith('{') ? (JSON.parse(text) as { error?: { message?: string } }).error?.message : undefined;
  return { status: answer.status, ...(answer.headers.get('mcp-session-id') ? { id: answer.headers.get('mcp-session-id')! } : {}), ...(message ? { message } : {}) };
}

/** Opens a 2025-11-25 session from `from` (initialize, then notifications/initialized): its id, or the refusal. */
async function open(url: string, from?: string, headers: Record<string, string> = {}): Promise<{ status: number; id?: string; message?: string }> {
  const init = await post(url, from, headers, initializeBody());
  if (init.status !== 200) return init;
  const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await post(url, from, { ...headers, 'mcp-session-id': init.id!, 'mcp-protocol-version': '2025-11-25' }, initialized);
  return { status: 200, id: init.id };
}

/** A ping in session `id`: 200 while it is open, 404 once it ended (this marks it used). */
async function ping(url: string, id: string, from?: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  return (await post(url, from, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, body)).status;
}

/** Opens `count` sessions from `from`, a few milliseconds apart (so that each was last used at its own time). */
async function openMany(url: string, from: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const opened = await open(url, from);
    if (!opened.id) throw new Error(`session ${i} from ${from}: ${opened.status} ${opened.message}`);
    ids.push(opened.id);
    await sleep(3);
  }
  return ids;
}

/** The SDK client over Streamable HTTP, its connections from `from`. */
async function sdkClient(url: string, from: string): Promise<Client> {
  const client = new Client({ name: 'newcomer', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchFrom(from) }));
  return client;
}

describe('a full session table (issue 38, 8)', () => {
  let app: McpApplication;
  afterEach(() => app.close());

  it('admits a new address by ending the least recently used session of the client holding the most', async () => {
    app = await McpFactory.create(shareModule());
    await app.listen({ transport: 'http', port: 0, maxSessions: 12, maxSessionsPerClient: 6 });
    const url = await app.getUrl();
    // Three addresses fill the table: 6, 4 and 2 sessions.
    const heavy = await openMany(url, '127.0.0.2', 6);
    const middle = await openMany(url, '127.0.0.3', 4);
    const light = await openMany(url, '127.0.0.4', 2);
    // The heaviest client used its first session again: its second is now the one unused the longest.
    await sleep(3);
    expect(await ping(url, heavy[0], '127.0.0.2')).toBe(200);

    // A fourth address is admitted (it was answered 503 until a session idled out, 30 minutes by default).
    const newcomer = await sdkClient(url, '127.0.0.5');
    try {
      expect((await newcomer.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([{ type: 'text', text: '5' }]);
      // Its second session too: the heaviest (5 now) still holds two more than it.
      expect((await open(url, '127.0.0.5')).status).toBe(200);
      // The heaviest may not take a place back: it holds as many as the next (4), more than its fair share.
      expect(await open(url, '127.0.0.2')).toEqual({ status: 503, message: 'Too many sessions: try again later.' });

      // The sessions that ended were the heaviest client's two least recently used; every other session lives.
      const alive = async (ids: string[], from: string) => Promise.all(ids.map(async (id) => (await ping(url, id, from)) === 200));
      expect(await alive(heavy, '127.0.0.2')).toEqual([true, false, false, true, true, true]);
      expect(await alive(middle, '127.0.0.3')).toEqual([true, true, true, true]);
      expect(await alive(light, '127.0.0.4')).toEqual([true, true]);
    } finally {
      await newcomer.close();
    }
  });

  it('keeps a 160 MB server open to a new address after 10 addresses filled its table with default bounds', async () => {
    // The handshake is left unfinished on purpose: the sessions stay (for 10 minutes) without a second request each.
    const server = await startServerProcess('hostile-app.ts', 160, { HTTP_OPTIONS: JSON.stringify({ handshakeTimeoutMs: 600_000 }) });
    try {
      let opened = 0;
      let full: { status: number; body: string } | undefined;
      // 218 MB of heap limit (160 MB old space) / 4 / 16 KiB: about 2,560 sessions, a tenth of them per client.
      for (let client = 0; client < 11 && !full; client++) {
        for (let refusedHere = 0; refusedHere === 0; ) {
          const answers = await Promise.all(
            Array.from({ length: 25 }, () => rawRequest(server.url, { headers: JSON_AND_SSE, body: initializeBody(), localAddress: `127.0.1.${client + 1}` })),
          );
          opened += answers.filter((answer) => answer.status === 200).length;
          refusedHere = answers.filter((answer) => answer.status !== 200).length;
          full ??= answers.find((answer) => answer.status === 503);
        }
      }
      // The table is full: one of the filling addresses asking once more is refused.
      expect(opened).toBeGreaterThan(2_000);
      expect(full?.status).toBe(503);
      // A twelfth address, through the SDK client: admitted at once, and served.
      const newcomer = await sdkClient(server.url, '127.0.2.1');
      try {
        expect((await newcomer.callTool({ name: 'add', arguments: { a: 20, b: 22 } })).content).toEqual([{ type: 'text', text: '42' }]);
      } finally {
        await newcomer.close();
      }
      expect(server.alive()).toBe(true);
      expect((await server.memory()).heap).toBeLessThan(140 * MIB);
    } finally {
      await server.stop();
    }
  }, 180_000);
});

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'listener', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Opens a 2026-07-28 subscriptions/listen stream from `from`: its status once its first bytes came, and when it ends. */
function listen(url: string, from: string, id: number): Promise<{ status: number; response: IncomingMessage; ended: Promise<void>; isOver(): boolean }> {
  const target = new URL(url);
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: MODERN_META } });
  const headers = { ...JSON_AND_SSE, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, localAddress: from, agent: false }, (response) => {
      let over = false;
      const ended = new Promise<void>((done) => {
        const end = () => {
          over = true;
          done();
        };
        response.once('end', end);
        response.once('close', end);
      });
      response.on('data', () => undefined);
      response.once('readable', () => resolve({ status: response.statusCode ?? 0, response, ended, isOver: () => over }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a full table of listen streams (issue 38, 8: the same lockout)', () => {
  let app: McpApplication;
  afterEach(() => app.close());

  it('admits a new address by ending the oldest stream of the client holding the most', async () => {
    app = await McpFactory.create(shareModule());
    await app.listen({ transport: 'http', port: 0, maxListenStreams: 6, maxListenStreamsPerClient: 4 });
    const url = await app.getUrl();
    const heavy = [];
    for (let i = 0; i < 4; i++) heavy.push(await listen(url, '127.0.0.2', i + 1));
    const light = [await listen(url, '127.0.0.3', 11), await listen(url, '127.0.0.3', 12)];
    expect([...heavy, ...light].map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // A third address listens: the heaviest client's oldest stream ends for it (it was refused 503 before).
    const newcomer = await listen(url, '127.0.0.4', 21);
    expect(newcomer.status).toBe(200);
    await heavy[0].ended;
    // The heaviest may not take the place back (it holds 3, no one holds 5): 503; every other stream stays open.
    const again = await listen(url, '127.0.0.2', 5);
    expect(again.status).toBe(503);
    await sleep(200);
    expect([...heavy.slice(1), ...light, newcomer].map((stream) => stream.isOver())).toEqual([false, false, false, false, false, false]);
    for (const stream of [...heavy, ...light, newcomer, again]) stream.response.destroy();
  });
});

describe('IPv6 clients and IPv4-mapped addresses (issue 38, 8)', () => {
  const servers: Server[] = [];
  let app: McpApplication;
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await app.close();
  });

  /** Mounts one handler (one endpoint, one session table) in a server on `host`; its URL. */
  async function mount(handler: Parameters<typeof createServer>[1], host: string): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const shown = host.includes(':') ? `[${host === '::' ? '::1' : host}]` : host;
    return `http://${shown}:${(server.address() as AddressInfo).port}/mcp`;
  }

  it('counts 127.0.0.2 seen through a dual-stack socket (::ffff:127.0.0.2) as the same client', async () => {
    app = await McpFactory.create(shareModule());
    const handler = app.createHttpHandler({ maxSessionsPerClient: 1 });
    const v4 = await mount(handler, '127.0.0.1');
    const dual = (await mount(handler, '::')).replace('[::1]', '127.0.0.1');
    expect((await open(v4, '127.0.0.2')).status).toBe(200);
    // The same client through the dual-stack server, where its address reads ::ffff:127.0.0.2.
    expect(await open(dual, '127.0.0.2')).toMatchObject({ status: 429, message: expect.stringContaining('Too many sessions from this client (at most 1)') });
    expect((await open(dual, '127.0.0.3')).status).toBe(200);
  });

  it('counts the addresses of one /64 as one client over an IPv6 socket (::1), by a clientKey address too', async () => {
    app = await McpFactory.create(shareModule());
    // Behind a proxy on ::1 that names the client in X-Real-IP.
    const handler = app.createHttpHandler({ maxSessionsPerClient: 1, clientKey: (request, remote) => request.headers.get('x-real-ip') ?? remote });
    const url = await mount(handler, '::1');
    expect((await open(url, '::1', { 'x-real-ip': '2001:db8:1:2::1' })).status).toBe(200);
    expect(await open(url, '::1', { 'x-real-ip': '2001:db8:1:2:aaaa::7' })).toMatchObject({ status: 429 });
    expect((await open(url, '::1', { 'x-real-ip': '2001:db8:1:3::1' })).status).toBe(200);
    // The socket's own address: ::1 is in ::/64 with no other client here.
    expect((await open(url, '::1')).status).toBe(200);
    expect(await open(url, '::1')).toMatchObject({ status: 429 });
  });

  it('groups by ipv6Prefix, and refuses one that is no prefix length at bootstrap', async () => {
    app = await McpFactory.create(shareModule());
    const handler = app.createHttpHandler({ maxSessionsPerClient: 1, ipv6Prefix: 48, clientKey: (request) => request.headers.get('x-real-ip') ?? undefined });
    const url = await mount(handler, '::1');
    expect((await open(url, '::1', { 'x-real-ip': '2001:db8:1:2::1' })).status).toBe(200);
    expect((await open(url, '::1', { 'x-real-ip': '2001:db8:1:3::1' })).status).toBe(429);
    expect(() => app.createHttpHandler({ ipv6Prefix: 129 })).toThrow(
      'Cannot serve over HTTP with ipv6Prefix 129: it is the length in bits of the IPv6 network a client\'s address is counted by, an integer from 0 to 128.\n' +
        'Fix: leave it out (64: one client per /64, what a host is usually given), or give e.g. ipv6Prefix: 56.',
    );
  });
});
