import { JSON_AND_SSE, rawRequest } from '../../support/http-helpers';
import { startServerProcess, type ServerProcess } from '../../support/server-process';

const KIB = 1024;
/** A loopback address of its own for each of 65,536 clients. */
const peer = (n: number) => `127.1.${n >> 8}.${n & 255}`;
const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

/**
 * What the HTTP endpoint counts per client (unread answer bytes, bodies, calls) lives while one of its requests
 * does: an answer without a body (202 to a notification) gives it back as a streamed one does, so that clients
 * which come and go leave nothing behind.
 */
describe('the per-client bookkeeping of the HTTP endpoint', () => {
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps nothing for the clients of bodiless answers once they were sent', async () => {
    server = await startServerProcess('hostile-app.ts', 160, { HTTP_OPTIONS: JSON.stringify({ stateless: true }) });
    const send = async (first: number, count: number) => {
      for (let at = first; at < first + count; at += 50) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) => rawRequest(server!.url, { headers: { ...JSON_AND_SSE, 'mcp-protocol-version': '2025-11-25' }, body: notification, localAddress: peer(at + i) })),
        );
        for (const answer of answers) expect(answer.status).toBe(202);
      }
    };
    await send(0, 1_000); // warm-up: code, pools and the connection machinery
    const before = await server.memory();
    await send(1_000, 12_000);
    const after = await server.memory();
    // 12,000 clients held ~200 bytes each before (about 2.3 MiB): now they leave well under one byte per client on average.
    expect((after.heap - before.heap) / KIB).toBeLessThan(768);
  }, 120_000);
});
