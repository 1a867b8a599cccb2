import 'reflect-metadata';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Injectable, McpFactory, McpModule, Module, Param, Tool, type McpApplication } from 'mcp-reflect';
import { JSON_AND_SSE, initializeBody, messagesOf, rawRequest } from '../../support/http-helpers';
import { startServerProcess, type ServerProcess } from '../../support/server-process';
import { waitFor } from '../../support/waiting';

/**
 * Issue 22, the attacks on the HTTP endpoint that cost memory or time, through real sockets: bodies declared
 * and never finished, sessions past what the heap holds, listen streams held for ever, answers never read, a
 * body shaped to cost seconds to parse, request lines that cannot make a URL. Where memory is the point, the
 * server is a process of its own with a 160 MB heap (spec/fixtures/hostile-app.ts).
 */

const MIB = 1024 * 1024;
/** Loopback addresses other than 127.0.0.1: each is another client (Linux routes all of 127/8 to lo). */
const peer = (n: number) => `127.0.0.${2 + n}`;

/** Opens a socket from `from`, sends a POST's headers declaring `declared` body bytes and `send` of them, then stalls. */
function stalledBody(url: string, from: string, declared: number, send: number, headers: Record<string, string> = {}): { socket: Socket; status: Promise<number | undefined> } {
  const target = new URL(url);
  const socket = connect({ host: target.hostname, port: Number(target.port), localAddress: from });
  socket.on('error', () => undefined); // a refused body may end in a reset
  const head = Object.entries({ host: target.host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(declared), ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST ${target.pathname} HTTP/1.1\r\n${head}\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const pump = (left: number) => {
    while (left > 0 && !socket.destroyed) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      if (!socket.write(piece)) return void socket.once('drain', () => pump(left));
    }
  };
  socket.once('connect', () => pump(send));
  const status = new Promise<number | undefined>((resolve) => {
    socket.once('data', (data: Buffer) => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(data.toString('latin1'))?.[1])));
    socket.once('close', () => resolve(undefined));
  });
  return { socket, status };
}

/** A GET of /healthz: how long it took (the event loop is free when this is quick). */
async function health(url: string): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  const answer = await rawRequest(new URL('/healthz', url).href, { method: 'GET' });
  return { status: answer.status, ms: Date.now() - started };
}

/** One raw POST from `from` (a loopback address). */
const requestFrom = (url: string, from: string, headers: Record<string, string>, body: string) => rawRequest(url, { headers, body, localAddress: from });

const addCall = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });
const STATELESS = JSON.stringify({ stateless: true });

describe('request bodies that never finish (issue 22, 1)', () => {
  let server: ServerProcess | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server?.stop();
    server = undefined;
  });

  it('cannot exhaust a 160 MB heap: 40 sockets each declaring 4 MiB and stalling 200 bytes short are bounded in bytes and per client', async () => {
    server = await startServerProcess('hostile-app.ts', 160, { HTTP_OPTIONS: STATELESS });
    const url = server.url;
    const attacks = Array.from({ length: 40 }, (_, i) => stalledBody(url, peer(i % 10), 4 * MIB, 4 * MIB - 200));
    sockets.push(...attacks.map((attack) => attack.socket));
    // Refusals come at once, without reading the bodies: past its own share a client gets 429, past the total 503.
    const refused = await waitFor(
      async () => {
        const settled = await Promise.all(attacks.map((attack) => Promise.race([attack.status, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 20))])));
        const answered = settled.filter((status) => status !== 'open');
        return answered.length >= 30 ? answered : undefined;
      },
      { timeout: 20_000, what: 'the bodies past the bounds to be refused' },
    );
    expect(refused.every((status) => status === 429 || status === 503 || status === undefined)).toBe(true);
    expect(refused.filter((status) => status === 429 || status === 503).length).toBeGreaterThanOrEqual(10);
    expect(server.alive()).toBe(true);
    expect((await health(url)).status).toBe(200);
    // Another client is served while the stalled bodies are held; the heap holds at most the bodies admitted.
    const call = await requestFrom(url, peer(20), JSON_AND_SSE, addCall);
    expect(call.status).toBe(200);
    expect(messagesOf(call.body)[0].result.content).toEqual([{ type: 'text', text: '5' }]);
    const { heap } = await server.memory();
    expect(heap).toBeLessThan(90 * MIB);
  }, 60_000);

  it('reads no body before the token is checked: with auth, the same 40 sockets are answered 401 and hold nothing', async () => {
    // The issuer is never contacted: a request without a token is refused from its headers.
    server = await startServerProcess('hostile-app.ts', 160, { AUTH_ISSUER: 'http://127.0.0.1:9', HTTP_OPTIONS: STATELESS });
    const attacks = Array.from({ length: 40 }, (_, i) => stalledBody(server!.url, peer(i % 10), 4 * MIB, 4 * MIB - 200));
    sockets.push(...attacks.map((attack) => attack.socket));
    // Answered from the headers; a client still sending when the connection closes may see a reset instead.
    const statuses = await Promise.all(attacks.map((attack) => attack.status));
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 401 || status === undefined)).toBe(true);
    expect(server.alive()).toBe(true);
    const { heap } = await server.memory();
    expect(heap).toBeLessThan(60 * MIB);
  }, 60_000);

  it('answers a body that does not arrive within requestTimeoutMs with 408, also behind createHttpHandler()', async () => {
    const app = await McpFactory.create(hostileModule());
    const { createServer } = await import('node:http');
    // A server that is not ours: Node's own request timeout is 5 minutes there.
    const web = createServer(app.createHttpHandler({ stateless: true, requestTimeoutMs: 300 }));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(web.address() as { port: number }).port}/mcp`;
    try {
      const attack = stalledBody(url, '127.0.0.1', 1000, 10);
      sockets.push(attack.socket);
      const started = Date.now();
      expect(await attack.status).toBe(408);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await app.close();
      web.closeAllConnections();
      await new Promise((resolve) => web.close(resolve));
    }
  });
});

describe('sessions past what the heap holds (issue 22, 2)', () => {
  it('derives the session bound from a 160 MB heap: 11 clients asking 1,000 sessions each leave the server alive', async () => {
    const server = await startServerProcess('hostile-app.ts', 160);
    try {
      let opened = 0;
      const refusals = new Map<number, number>();
      for (let client = 0; client < 11; client++) {
        // 1,000 initializes from one address, 25 at a time; each stops at its client's bound.
        let refusedHere = 0;
        for (let i = 0; i < 1000 && refusedHere < 25; i += 25) {
          const answers = await Promise.all(Array.from({ length: 25 }, () => requestFrom(server.url, peer(client), JSON_AND_SSE, initializeBody()).catch(() => ({ status: 0, body: '' }))));
          for (const answer of answers) {
            if (answer.status === 200) opened++;
            else {
              refusedHere++;
              refusals.set(answer.status, (refusals.get(answer.status) ?? 0) + 1);
            }
          }
        }
      }
      expect(server.alive()).toBe(true);
      // 218 MB of heap limit (160 MB old space) / 4 / 16 KiB: about 3,300 sessions, a tenth of them per client.
      expect(opened).toBeGreaterThan(1_000);
      expect(opened).toBeLessThan(4_000);
      expect([...refusals.keys()].every((status) => status === 429 || status === 503)).toBe(true);
      const { heap } = await server.memory();
      expect(heap).toBeLessThan(140 * MIB);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('refuses new sessions under memory pressure when the bounds given are above what the heap holds', async () => {
    // Bounds far above what 48 MB hold: the heap itself is watched, and a new session is refused before it runs out.
    const server = await startServerProcess('hostile-app.ts', 48, { HTTP_OPTIONS: JSON.stringify({ maxSessions: 1_000_000, maxSessionsPerClient: 1_000_000, handshakeTimeoutMs: 600_000 }) });
    try {
      let refused: { status: number; body: string } | undefined;
      let opened = 0;
      while (!refused && opened < 40_000) {
        const answers = await Promise.all(Array.from({ length: 25 }, () => requestFrom(server.url, peer(0), JSON_AND_SSE, initializeBody())));
        opened += answers.filter((answer) => answer.status === 200).length;
        refused = answers.find((answer) => answer.status !== 200);
      }
      expect(refused?.status).toBe(503);
      expect(JSON.parse(refused!.body).error.message).toBe('Server busy: out of memory for new sessions. Retry shortly.');
      expect(opened).toBeGreaterThan(500);
      expect(server.alive()).toBe(true);
      expect((await health(server.url)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 240_000); // the heap fills by tens of thousands of sessions: slow on a loaded 2-core machine
});

@Injectable()
class QuickTools {
  @Tool()
  add(@Param() a: number, @Param() b: number): number {
    return a + b;
  }
}

function hostileModule() {
  @Module({ imports: [McpModule.forRoot({ name: 'hostile', version: '1.0.0' })], providers: [QuickTools] })
  class HostileModule {}
  return HostileModule;
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'hostile', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const MODERN_HEADERS = { ...JSON_AND_SSE, 'mcp-protocol-version': '2026-07-28' };

/** Opens a 2026-07-28 subscriptions/listen stream from `from`; resolves with its status once its first bytes came. */
function listen(url: string, from: string, id: number): Promise<{ status: number; response: IncomingMessage; first: string; ended: Promise<void> }> {
  const target = new URL(url);
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: MODERN_META } });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { ...MODERN_HEADERS, 'mcp-method': 'subscriptions/listen' }, localAddress: from, agent: false },
      (response) => {
        const ended = new Promise<void>((done) => {
          response.once('end', done);
          response.once('close', done);
        });
        response.setEncoding('utf8');
        response.once('data', (first: string) => resolve({ status: response.statusCode ?? 0, response, first, ended }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('subscriptions/listen streams (issue 22, 9)', () => {
  let app: McpApplication;
  afterEach(() => app.close());

  it('bounds the streams one client holds, while another client still listens', async () => {
    app = await McpFactory.create(hostileModule());
    await app.listen({ transport: 'http', port: 0, maxListenStreamsPerClient: 4 });
    const url = await app.getUrl();
    const held = [];
    for (let i = 0; i < 4; i++) held.push(await listen(url, peer(0), i + 1));
    expect(held.map((stream) => stream.status)).toEqual([200, 200, 200, 200]);
    const refused = await listen(url, peer(0), 9);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.first)).toMatchObject({ id: 9, error: { code: -32000, message: expect.stringContaining('Too many subscriptions/listen streams from this client (at most 4)') } });
    const other = await listen(url, peer(1), 10);
    expect(other.status).toBe(200);
    // Closing one frees its place.
    held[0].response.destroy();
    const again = await waitFor(async () => {
      const stream = await listen(url, peer(0), 11);
      if (stream.status === 200) return stream;
      stream.response.destroy();
      return undefined;
    }, { what: 'a place to be free again' });
    for (const stream of [...held, other, again]) stream.response.destroy();
  });

  it('ends a stream that carried no notification for listenIdleTimeoutMs', async () => {
    app = await McpFactory.create(hostileModule());
    await app.listen({ transport: 'http', port: 0, listenIdleTimeoutMs: 300 });
    const stream = await listen(await app.getUrl(), peer(0), 1);
    expect(stream.status).toBe(200);
    const started = Date.now();
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('answers a client never reads (issue 22, 10)', () => {
  it('bound what slow readers make a 160 MB server hold, and end writes that make no progress', async () => {
    const server = await startServerProcess('hostile-app.ts', 160, { HTTP_OPTIONS: JSON.stringify({ stateless: true, writeTimeoutMs: 2_000 }) });
    const sockets: Socket[] = [];
    try {
      const target = new URL(server.url);
      const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: { mib: 15 } } });
      // 24 sockets from one client ask for a 15 MiB answer each and never read.
      for (let i = 0; i < 24; i++) {
        const socket = connect({ host: target.hostname, port: Number(target.port), localAddress: peer(0) });
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
      const refused = await requestFrom(server.url, peer(0), JSON_AND_SSE, addCall);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body).error.message).toContain('Too many unread answers');
      expect((await requestFrom(server.url, peer(1), JSON_AND_SSE, addCall)).status).toBe(200);
      // Writes that made no progress for 2 s end their connections, and what they held goes.
      const freed = await waitFor(
        async () => {
          const memory = await server.memory();
          return memory.heap + memory.buffers < 40 * MIB ? memory : undefined;
        },
        { timeout: 20_000, what: 'the stalled answers to be dropped' },
      );
      expect(freed.heap + freed.buffers).toBeLessThan(40 * MIB);
      expect((await requestFrom(server.url, peer(0), JSON_AND_SSE, addCall)).status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
      await server.stop();
    }
  }, 90_000);
});

describe('request lines and bodies shaped to hurt (issue 22, 11 and 12)', () => {
  let app: McpApplication;
  let url: string;
  beforeAll(async () => {
    app = await McpFactory.create(hostileModule());
    await app.listen({ transport: 'http', port: 0, stateless: true });
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  /** Sends `text` as it is on a new connection; the status of the answer. */
  const rawLine = (text: string) =>
    new Promise<number>((resolve) => {
      const target = new URL(url);
      const socket = connect({ host: target.hostname, port: Number(target.port) }, () => socket.write(text));
      socket.once('data', (data: Buffer) => {
        resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(data.toString('latin1'))?.[1]));
        socket.destroy();
      });
      socket.once('error', () => resolve(0));
      socket.once('close', () => resolve(0));
    });
  const post = (target: string, host: string, body = addCall) =>
    rawLine(`POST ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);

  it('serves an absolute-form target and answers a target or Host that cannot make a URL with 400, never 500 or a crash', async () => {
    const { host, port } = new URL(url);
    expect(await post(`http://${host}/mcp`, host)).toBe(200);
    expect(await post('/mcp', `localhost:65536`)).toBe(400);
    expect(await post('/mcp', `127.0.0.1:99999`)).toBe(400);
    expect(await post('http://[/mcp', host)).toBe(400);
    expect(await post('*', host)).toBe(400);
    expect(await rawLine(`TRACE /mcp HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).toBe(405);
    // Alive and serving.
    expect(await post('/mcp', `127.0.0.1:${port}`)).toBe(200);
  });

  it('refuses a 4 MiB body of a million empty objects before parsing it, keeping the event loop free', async () => {
    const body = `[${new Array(Math.floor((4 * MIB - 2) / 3)).fill('{}').join(',')}]`;
    const sends = Array.from({ length: 4 }, () => rawRequest(url, { headers: JSON_AND_SSE, body }));
    const during = health(url);
    const answers = await Promise.all(sends);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error).toEqual({ code: -32600, message: 'Invalid Request: the body holds more than 100000 objects and arrays.' });
    }
    // Four such bodies held a health check 4.4 s before they were refused unparsed (the bound leaves room for
    // a loaded CI machine running two spec workers: 1.5 s was crossed at 1.53 s there).
    expect((await during).ms).toBeLessThan(2_500);
  });

  it('refuses nesting deeper than maxJsonDepth and batches larger than maxBatchSize', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const nested = await rawRequest(url, { headers: JSON_AND_SSE, body: deep });
    expect(nested.status).toBe(400);
    expect(JSON.parse(nested.body).error).toEqual({ code: -32600, message: 'Invalid Request: the body nests objects and arrays deeper than 64 levels.' });
    const batch = `[${Array.from({ length: 101 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x', params: { i } })).join(',')}]`;
    const big = await rawRequest(url, { headers: JSON_AND_SSE, body: batch });
    expect(big.status).toBe(400);
    expect(JSON.parse(big.body).error.message).toBe('Invalid Request: a batch may hold at most 100 messages.');
    // Strings may hold brackets and commas: they are no structure.
    const text = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 }, _meta: { note: '[[[[,,,,{{{{'.repeat(1000) } } });
    expect((await rawRequest(url, { headers: JSON_AND_SSE, body: text })).status).toBe(200);
  });
});
