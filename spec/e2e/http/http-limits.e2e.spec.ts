import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Context, Ctx, Injectable, McpFactory, McpModule, Module, Param, Resource, Tool } from 'mcp-reflect';
import { JSON_AND_SSE, initializeBody, messagesOf, openSession, rawRequest } from '../../support/http-helpers';
import { deferred, within } from '../../support/waiting';

let aborted = 0;
/** When a `hang` call started, and when its signal aborted (the latest call's). */
let hang = { started: deferred(), aborted: deferred() };
beforeEach(() => {
  aborted = 0;
  hang = { started: deferred(), aborted: deferred() };
});

@Injectable()
class LimitTools {
  @Tool()
  echo(@Param() text: string): string {
    return text;
  }

  @Tool()
  async hang(@Ctx() ctx: Context): Promise<string> {
    hang.started.resolve();
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    aborted++;
    hang.aborted.resolve();
    return 'aborted';
  }

  @Resource('config://app')
  config(): string {
    return 'debug=false';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'limits', version: '1.0.0' })], providers: [LimitTools] })
class LimitsModule {}

const callBody = (id: number, name: string, args: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('HTTP limits', () => {
  it('answers 503 past maxSessions and 413 past maxRequestBodySize', async () => {
    const app = await McpFactory.create(LimitsModule);
    await app.listen({ transport: 'http', port: 0, maxSessions: 2, maxRequestBodySize: 2048 });
    const url = await app.getUrl();
    try {
      await openSession(url);
      await openSession(url);
      const third = await rawRequest(url, { headers: JSON_AND_SSE, body: initializeBody() });
      expect(third.status).toBe(503);
      expect(JSON.parse(third.body).error.message).toBe('Too many sessions: try again later.');
      const big = await rawRequest(url, { headers: JSON_AND_SSE, body: JSON.stringify({ pad: 'x'.repeat(5000) }) });
      expect(big.status).toBe(413);
    } finally {
      await app.close();
    }
  });

  it('evicts an idle session, aborting its in-flight call; the id then answers 404', async () => {
    const app = await McpFactory.create(LimitsModule);
    await app.listen({ transport: 'http', port: 0, sessionIdleTimeoutMs: 300 });
    const url = await app.getUrl();
    try {
      const session = await openSession(url);
      const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      const hanging = rawRequest(url, { headers, body: callBody(7, 'hang') }).catch(() => undefined);
      await within(hang.started.promise, 'the call to start');
      // No activity for 300 ms: the sweeper evicts the session and aborts the call.
      await within(hang.aborted.promise, 'the idle session to be evicted, aborting its call');
      expect(aborted).toBe(1);
      await hanging;
      expect((await rawRequest(url, { headers, body: callBody(8, 'echo', { text: 'x' }) })).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('answers 503 past maxConcurrentRequests', async () => {
    const app = await McpFactory.create(LimitsModule);
    await app.listen({ transport: 'http', port: 0, maxConcurrentRequests: 1, stateless: true });
    const url = await app.getUrl();
    try {
      const first = rawRequest(url, { headers: JSON_AND_SSE, body: callBody(1, 'hang') }).catch(() => undefined);
      await within(hang.started.promise, 'the first call to start'); // it holds the only slot
      const second = await rawRequest(url, { headers: JSON_AND_SSE, body: callBody(2, 'echo', { text: 'x' }) });
      expect(second.status).toBe(503);
      expect(second.headers['retry-after']).toBe('1');
      await app.close();
      await first;
    } finally {
      await app.close();
    }
  });
});

describe('maxConcurrentRequestsPerClient (issue 38: one client must not take every call slot)', () => {
  it('one address holds at most a quarter of maxConcurrentRequests; past it 429, and another address is served', async () => {
    const app = await McpFactory.create(LimitsModule);
    await app.listen({ transport: 'http', port: 0, maxConcurrentRequests: 8, stateless: true, drainTimeoutMs: 100 });
    const url = await app.getUrl();
    try {
      const hanging = [1, 2].map((id) => rawRequest(url, { headers: JSON_AND_SSE, body: callBody(id, 'hang'), localAddress: '127.0.0.2' }).catch(() => undefined));
      await within(hang.started.promise, 'a hanging call to start');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const third = await rawRequest(url, { headers: JSON_AND_SSE, body: callBody(3, 'echo', { text: 'x' }), localAddress: '127.0.0.2' });
      expect({ status: third.status, retryAfter: third.headers['retry-after'], body: JSON.parse(third.body) }).toEqual({
        status: 429,
        retryAfter: '1',
        body: { jsonrpc: '2.0', error: { code: -32000, message: 'Too many requests in progress from this client (at most 2). Retry shortly.' }, id: null },
      });
      const other = await rawRequest(url, { headers: JSON_AND_SSE, body: callBody(4, 'echo', { text: 'y' }), localAddress: '127.0.0.3' });
      expect(other.status).toBe(200);
      await app.close();
      await Promise.all(hanging);
    } finally {
      await app.close();
    }
  });
});

describe('stateless HTTP', () => {
  it.each([undefined, '2026-07-28'] as const)('serves an SDK client without sessions (era %s)', async (era) => {
    const app = await McpFactory.create(LimitsModule);
    await app.listen({ transport: 'http', port: 0, stateless: true });
    const url = await app.getUrl();
    const client = new Client({ name: 's', version: '1' }, era ? { versionNegotiation: { mode: { pin: era } } } : {});
    const transport = new StreamableHTTPClientTransport(new URL(url));
    try {
      await client.connect(transport);
      expect(transport.sessionId).toBeUndefined();
      expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).content).toEqual([{ type: 'text', text: 'hi' }]);
      expect((await rawRequest(url, { method: 'GET', headers: { accept: 'text/event-stream' } })).status).toBe(405);
    } finally {
      await client.close();
      await app.close();
    }
  });
});

describe('load and lifecycle', () => {
  it('serves 200 concurrent sessions × 10 calls with no lost or mixed-up responses', async () => {
    const app = await McpFactory.create(LimitsModule);
    await app.listen({ transport: 'http', port: 0 });
    const url = await app.getUrl();
    try {
      const sessions = await Promise.all(
        Array.from({ length: 200 }, async (_, s) => {
          const client = new Client({ name: `c${s}`, version: '1' });
          await client.connect(new StreamableHTTPClientTransport(new URL(url)));
          const texts = await Promise.all(
            Array.from({ length: 10 }, async (_, c) => {
              const result = await client.callTool({ name: 'echo', arguments: { text: `${s}:${c}` } });
              return (result.content as { text: string }[])[0].text;
            }),
          );
          await client.close();
          return texts;
        }),
      );
      sessions.forEach((texts, s) => expect(texts).toEqual(Array.from({ length: 10 }, (_, c) => `${s}:${c}`)));
    } finally {
      await app.close();
    }
  }, 60_000);

  it('shuts down: a call still running when the drain time is over is aborted, the port is released', async () => {
    const app = await McpFactory.create(LimitsModule);
    await app.listen({ transport: 'http', port: 0, drainTimeoutMs: 300 });
    const url = await app.getUrl();
    const session = await openSession(url);
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const hanging = rawRequest(url, { headers, body: callBody(9, 'hang') }).catch((error: Error) => error);
    await within(hang.started.promise, 'the call to start');
    // The call would run forever: close() ends only because the drain time is over and the call is aborted
    // (the deadline only turns a hang into a readable failure).
    await within(app.close(), 'app.close() to end after the 300 ms drain time');
    expect(hang.aborted.settled).toBe(true);
    await hanging;
    expect(aborted).toBe(1);
    await expect(rawRequest(url, { method: 'GET' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('mounts in a node:http server of your own with createHttpHandler()', async () => {
    const app = await McpFactory.create(LimitsModule);
    const handler = app.createHttpHandler();
    const server = createServer((req, res) => (req.url?.startsWith('/api/mcp') ? void handler(req, res) : res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`;
    const client = new Client({ name: 'm', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await client.callTool({ name: 'echo', arguments: { text: 'mounted' } })).content).toEqual([{ type: 'text', text: 'mounted' }]);
      const list = await rawRequest(url, { headers: JSON_AND_SSE, body: initializeBody(4) });
      expect(messagesOf(list.body)[0].result.serverInfo.name).toBe('limits');
    } finally {
      await client.close();
      await app.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('stateless HTTP and features that need a session', () => {
  @Injectable()
  class AskTools {
    @Tool()
    async ask(@Ctx() ctx: Context): Promise<string> {
      return JSON.stringify(await ctx.listRoots());
    }
  }
  @Module({ imports: [McpModule.forRoot({ name: 'ask', version: '1.0.0' })], providers: [AskTools] })
  class AskModule {}

  it('refuses them clearly for 2025-era clients and serves them for 2026-07-28 clients', async () => {
    const app = await McpFactory.create(AskModule);
    await app.listen({ transport: 'http', port: 0, stateless: true });
    const url = await app.getUrl();
    try {
      for (const era of [undefined, '2026-07-28'] as const) {
        const client = new Client({ name: 's', version: '1' }, { capabilities: { roots: {} }, ...(era ? { versionNegotiation: { mode: { pin: era } } } : {}) });
        client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///srv' }] }));
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        const result = await client.callTool({ name: 'ask', arguments: {} });
        if (era) expect(result.content).toEqual([{ type: 'text', text: '[{"uri":"file:///srv"}]' }]);
        else {
          expect(result).toMatchObject({
            isError: true,
            content: [
              {
                type: 'text',
                text:
                  'This tool needs roots, which a stateless server cannot ask a 2025-era client for (the answer needs a session). ' +
                  'Serve over stateful HTTP or stdio, or connect with a 2026-07-28 client.',
              },
            ],
          });
        }
        await client.close();
      }
    } finally {
      await app.close();
    }
  });
});

describe('mounting behind a body parser, and stateless subscriptions', () => {
  it('uses the body Express already parsed (express.json())', async () => {
    const express = (await import('express')).default;
    const app = await McpFactory.create(LimitsModule);
    const web = express();
    web.use(express.json());
    web.all('/mcp', app.createHttpHandler());
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const s = web.listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const client = new Client({ name: 'x', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await client.callTool({ name: 'echo', arguments: { text: 'parsed' } })).content).toEqual([{ type: 'text', text: 'parsed' }]);
    } finally {
      await client.close();
      await app.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses resources/subscribe from a 2025-era client on a stateless endpoint', async () => {
    const app = await McpFactory.create(LimitsModule);
    await app.listen({ transport: 'http', port: 0, stateless: true });
    const client = new Client({ name: 'x', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(await app.getUrl())));
      await expect(client.subscribeResource({ uri: 'config://app' })).rejects.toMatchObject({
        code: -32600,
        message: expect.stringContaining('resources/subscribe needs a session, and this stateless server keeps none'),
      });
    } finally {
      await client.close();
      await app.close();
    }
  });
});
