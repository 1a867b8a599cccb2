import { connect, type Socket } from 'node:net';
import { JSON_AND_SSE, messagesOf, rawRequest } from '../support/http-helpers';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { waitFor } from '../support/waiting';

/**
 * Issue 38, 9, through a real process with a 160 MB heap (spec/fixtures/nest-hostile-app.ts): a Nest application
 * whose body parser takes 4 MiB (Express) or whose body limit is 4 MiB (Fastify) no longer buffers the endpoint
 * route's bodies outside the endpoint's bounds. 40 sockets from 10 addresses each send a 4 MiB JSON body and stall
 * short of its end: past the bounds of bodies in flight they are refused at once (429/503), the process lives, and
 * another client is served.
 */
const MIB = 1024 * 1024;
const peer = (n: number) => `127.0.0.${2 + n}`;

/** A POST declaring `declared` bytes of a JSON array of small strings (what costs most heap once parsed), `send` of them sent. */
function stalledBody(url: string, from: string, declared: number, send: number): { socket: Socket; status: Promise<number | undefined> } {
  const target = new URL(url);
  const socket = connect({ host: target.hostname, port: Number(target.port), localAddress: from });
  socket.on('error', () => undefined);
  const head = Object.entries({ host: target.host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(declared) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST ${target.pathname} HTTP/1.1\r\n${head}\r\n`);
  const piece = Buffer.from('"ab",'.repeat(13_107)); // 64 KiB of array elements
  let first = true;
  const pump = (left: number) => {
    while (left > 0 && !socket.destroyed) {
      const chunk = first ? Buffer.concat([Buffer.from('['), piece.subarray(1)]) : piece.subarray(0, Math.min(piece.length, left));
      first = false;
      left -= chunk.length;
      if (!socket.write(chunk)) return void socket.once('drain', () => pump(left));
    }
  };
  socket.once('connect', () => pump(send));
  const status = new Promise<number | undefined>((resolve) => {
    socket.once('data', (data: Buffer) => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(data.toString('latin1'))?.[1])));
    socket.once('close', () => resolve(undefined));
  });
  return { socket, status };
}

const addCall = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });

describe.each(['express', 'fastify'])('the Nest route under concurrent 4 MiB bodies, 160 MB heap (%s)', (platform) => {
  let server: ServerProcess | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server?.stop();
    server = undefined;
  });

  it('refuses the bodies past the bounds, stays alive and serves another client', async () => {
    server = await startServerProcess('nest-hostile-app.ts', 160, { PLATFORM: platform });
    const url = server.url;
    const attacks = Array.from({ length: 40 }, (_, i) => stalledBody(url, peer(i % 10), 4 * MIB, 4 * MIB - 200));
    sockets.push(...attacks.map((attack) => attack.socket));
    const refused = await waitFor(
      async () => {
        if (!server!.alive()) throw new Error('The server process died (out of memory).');
        const settled = await Promise.all(attacks.map((attack) => Promise.race([attack.status, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 20))])));
        const answered = settled.filter((status) => status !== 'open');
        return answered.length >= 30 ? answered : undefined;
      },
      { timeout: 30_000, what: 'the bodies past the bounds to be refused' },
    );
    expect(refused.every((status) => status === 429 || status === 503 || status === undefined)).toBe(true);
    expect(refused.filter((status) => status === 429 || status === 503).length).toBeGreaterThanOrEqual(10);
    expect(server.alive()).toBe(true);
    const call = await rawRequest(url, { headers: JSON_AND_SSE, body: addCall, localAddress: peer(20) });
    expect(call.status).toBe(200);
    expect(messagesOf(call.body)[0].result.content).toEqual([{ type: 'text', text: '5' }]);
    const { heap } = await server.memory();
    expect(heap).toBeLessThan(100 * MIB);
  }, 90_000);
});
