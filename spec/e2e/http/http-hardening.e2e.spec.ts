import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { Context, Ctx, InMemoryEventStore, Injectable, McpFactory, McpModule, Module, Param, Tool, type McpApplication } from 'mcp-reflect';
import { JSON_AND_SSE, initializeBody, messagesOf, openSession, rawRequest, readStream } from '../../support/http-helpers';
import { startServerProcess } from '../../support/server-process';
import { deferred, waitFor, within } from '../../support/waiting';

let aborted = 0;
/** When `never` and `gated` started, and what lets `gated` finish (fresh for each test). */
let events = { neverStarted: deferred(), gatedStarted: deferred(), gate: deferred() };
beforeEach(() => {
  events = { neverStarted: deferred(), gatedStarted: deferred(), gate: deferred() };
});

@Injectable()
class HostileTools {
  @Tool()
  big(@Param() kib: number): string {
    return 'x'.repeat(kib * 1024);
  }

  @Tool()
  async slow(@Param() ms: number): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return `slept ${ms} ms`;
  }

  @Tool()
  never(): Promise<string> {
    events.neverStarted.resolve();
    return new Promise(() => undefined); // no Context: it cannot even notice a cancellation
  }

  @Tool()
  async gated(): Promise<string> {
    events.gatedStarted.resolve();
    await events.gate.promise; // until the spec opens the gate
    return 'gate opened';
  }

  @Tool()
  async listens(@Ctx() ctx: Context): Promise<string> {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    aborted++;
    return 'stopped';
  }
}

const hostileModule = (options: { callTimeout?: number } = {}) => {
  @Module({ imports: [McpModule.forRoot({ name: 'hostile', version: '1.0.0', ...options })], providers: [HostileTools] })
  class HostileModule {}
  return HostileModule;
};

const callBody = (id: number, name: string, args: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

const headersOf = (session: string) => ({ ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });

/** The `id:` lines of an SSE body. */
const eventIds = (body: string) => [...body.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);

async function listening(app: McpApplication, options: object = {}): Promise<string> {
  await app.listen({ transport: 'http', port: 0, ...options });
  return app.getUrl();
}

describe('the event store', () => {
  it('replays an event only to the session that produced it, and forgets it when the session ends', async () => {
    const app = await McpFactory.create(hostileModule());
    const url = await listening(app);
    try {
      const a = await openSession(url);
      const b = await openSession(url);
      const call = await rawRequest(url, { headers: headersOf(a), body: callBody(2, 'big', { kib: 1 }) });
      const [priming] = eventIds(call.body);
      expect(priming).toBeDefined();
      // Read up to the replayed result (a refused resumption ends at once).
      const resume = (session: string) =>
        readStream(url, { ...headersOf(session), accept: 'text/event-stream', 'last-event-id': priming }, (messages) => messages.some((m) => m.id === 2));

      const own = await resume(a);
      expect(own.status).toBe(200);
      expect(messagesOf(own.body)).toEqual([expect.objectContaining({ id: 2, result: expect.objectContaining({ content: [expect.objectContaining({ type: 'text' })] }) })]);

      const foreign = await resume(b);
      expect(foreign.status).toBe(400);
      expect(JSON.parse(foreign.body).error.message).toBe('Invalid event ID format');

      await rawRequest(url, { method: 'DELETE', headers: headersOf(a) });
      expect((await resume(b)).status).toBe(400);
    } finally {
      await app.close();
    }
  });

  it('keeps memory bounded: large results of sessions deleted right after leave nothing behind', async () => {
    const eventStore = new InMemoryEventStore({ maxBytes: 4 * 1024 * 1024, maxSessionBytes: 1024 * 1024 });
    const app = await McpFactory.create(hostileModule());
    const url = await listening(app, { eventStore });
    try {
      for (let i = 0; i < 20; i++) {
        const session = await openSession(url);
        const call = await rawRequest(url, { headers: headersOf(session), body: callBody(2, 'big', { kib: 512 }) });
        expect(call.status).toBe(200);
        await rawRequest(url, { method: 'DELETE', headers: headersOf(session) });
      }
      expect(eventStore.size).toBe(0);
      // Sessions left open: the store never holds more than its budgets (1 MiB each, 4 MiB in all).
      for (let i = 0; i < 10; i++) {
        const session = await openSession(url);
        for (let c = 0; c < 3; c++) await rawRequest(url, { headers: headersOf(session), body: callBody(2 + c, 'big', { kib: 400 }) });
        expect(eventStore.size).toBeLessThanOrEqual(4 * 1024 * 1024);
      }
      expect(eventStore.size).toBeGreaterThan(2 * 1024 * 1024);
    } finally {
      await app.close();
    }
  });

  it('keeps a session within its own budget, oldest events first; a larger event is not kept', async () => {
    const store = new InMemoryEventStore({ maxBytes: 10_000, maxSessionBytes: 2_000 });
    const message = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { data: 'y'.repeat(n) } });
    const first = await store.storeEvent('s1', 'stream', message(500));
    const second = await store.storeEvent('s1', 'stream', message(500));
    await store.storeEvent('s1', 'stream', message(500));
    expect(await store.streamOf('s1', first)).toBeUndefined(); // pushed out by the third
    expect(await store.streamOf('s1', second)).toBe('stream');
    expect(await store.streamOf('s2', second)).toBeUndefined();
    const huge = await store.storeEvent('s1', 'stream', message(5_000));
    expect(await store.streamOf('s1', huge)).toBeUndefined();
    const sent: string[] = [];
    expect(await store.replayAfter('s1', second, async (id) => void sent.push(id))).toBe('stream');
    expect(sent).toHaveLength(1);
    expect(await store.replayAfter('s2', second, async () => undefined)).toBeUndefined();
    await store.dropSession('s1');
    expect(store.size).toBe(0);
  });
});

describe('the attack of 3 MB results from sessions deleted right after', () => {
  it('keeps the heap of a server with a 160 MB heap limit under 64 MB after 100 of them', async () => {
    const server = await startServerProcess('big-results-app.ts', 160);
    try {
      const city = 'x'.repeat(3 * 1024 * 1024);
      for (let i = 0; i < 100; i++) {
        const session = await openSession(server.url);
        const call = await rawRequest(server.url, { headers: headersOf(session), body: callBody(2, 'lookup', { city }) });
        expect(call.status).toBe(200);
        await rawRequest(server.url, { method: 'DELETE', headers: headersOf(session) });
      }
      const { heap } = await server.memory();
      expect(server.alive()).toBe(true); // before the bounds, this server ran out of heap at the 43rd such call
      expect(heap).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('calls whose client is gone', () => {
  it('stop holding their concurrency slot at the server-wide call timeout', async () => {
    const app = await McpFactory.create(hostileModule({ callTimeout: 400 }));
    const url = await listening(app, { maxConcurrentRequests: 1 });
    try {
      const session = await openSession(url);
      // The client disconnects while `never` runs: a disconnect is not a cancellation, the call goes on.
      await postAndDrop(url, headersOf(session), callBody(2, 'never'), events.neverStarted.promise);
      const busy = await rawRequest(url, { headers: headersOf(session), body: callBody(3, 'slow', { ms: 1 }) });
      expect(busy.status).toBe(503);
      // The slot is freed once the call timeout (400 ms) answers the gone client: nothing a client can see
      // but the next call being served, so the spec asks until it is (without the timeout, never).
      const freed = await waitFor(
        async () => {
          const next = await rawRequest(url, { headers: headersOf(session), body: callBody(4, 'slow', { ms: 1 }) });
          return next.status === 503 ? undefined : next;
        },
        { interval: 50, what: 'the call timeout to free the concurrency slot' },
      );
      expect(freed.status).toBe(200);
      expect(messagesOf(freed.body).at(-1).result.content[0].text).toBe('slept 1 ms');
    } finally {
      await app.close();
    }
  });

  it('are answered "timed out" by the call timeout, and a method that listens sees its signal abort', async () => {
    const app = await McpFactory.create(hostileModule({ callTimeout: 200 }));
    const url = await listening(app);
    try {
      aborted = 0;
      const session = await openSession(url);
      const never = await rawRequest(url, { headers: headersOf(session), body: callBody(2, 'never') });
      expect(messagesOf(never.body).at(-1).result).toEqual({ content: [{ type: 'text', text: "Tool 'never' timed out after 200 ms" }], isError: true });
      const listens = await rawRequest(url, { headers: headersOf(session), body: callBody(3, 'listens') });
      expect(messagesOf(listens.body).at(-1).result.content[0].text).toBe("Tool 'listens' timed out after 200 ms");
      expect(aborted).toBe(1);
    } finally {
      await app.close();
    }
  });
});

/** A POST whose connection is dropped once `until` resolves (e.g. the method it calls has started). */
async function postAndDrop(url: string, headers: Record<string, string>, body: string, until: Promise<void>): Promise<void> {
  const target = new URL(url);
  const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent: false });
  req.on('error', () => undefined);
  req.end(body);
  await within(until, 'the call to start');
  req.destroy();
}

/** The in-memory store, telling when a session's events are dropped (the session ended for good). */
class WatchedEventStore extends InMemoryEventStore {
  private readonly waiting = new Map<string, () => void>();
  private readonly gone = new Set<string>();

  override async dropSession(sessionId: string): Promise<void> {
    await super.dropSession(sessionId);
    this.gone.add(sessionId);
    this.waiting.get(sessionId)?.();
  }

  dropped(sessionId: string): Promise<void> {
    return this.gone.has(sessionId) ? Promise.resolve() : new Promise((resolve) => this.waiting.set(sessionId, resolve));
  }
}

describe('sessions', () => {
  it('evicts a session whose client never completes the handshake', async () => {
    const eventStore = new WatchedEventStore();
    const app = await McpFactory.create(hostileModule());
    const url = await listening(app, { handshakeTimeoutMs: 200, eventStore });
    try {
      // The complete session first: had its handshake timer not been cleared, it would fire first.
      const complete = await openSession(url);
      const init = await rawRequest(url, { headers: JSON_AND_SSE, body: initializeBody() });
      const halfOpen = init.headers['mcp-session-id'] as string;
      // Evicting a session ends it for good, its events with it: the store sees that as the last step.
      await within(eventStore.dropped(halfOpen), 'the half-open session to be evicted');
      expect((await rawRequest(url, { headers: headersOf(halfOpen), body: callBody(2, 'slow', { ms: 1 }) })).status).toBe(404);
      expect((await rawRequest(url, { headers: headersOf(complete), body: callBody(2, 'slow', { ms: 1 }) })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('caps the sessions of one client, by remote address or by the clientKey given', async () => {
    const app = await McpFactory.create(hostileModule());
    const url = await listening(app, { maxSessionsPerClient: 2 });
    const keyed = await McpFactory.create(hostileModule());
    const keyedUrl = await listening(keyed, { maxSessionsPerClient: 1, clientKey: (request: Request) => request.headers.get('x-user') ?? undefined });
    try {
      const first = await openSession(url);
      await openSession(url);
      const third = await rawRequest(url, { headers: JSON_AND_SSE, body: initializeBody() });
      expect(third.status).toBe(429);
      expect(JSON.parse(third.body).error.message).toBe(
        'Too many sessions from this client (at most 2): close one (DELETE with its Mcp-Session-Id) or reuse it.',
      );
      await rawRequest(url, { method: 'DELETE', headers: headersOf(first) });
      expect((await rawRequest(url, { headers: JSON_AND_SSE, body: initializeBody() })).status).toBe(200);

      const as = (user: string) => rawRequest(keyedUrl, { headers: { ...JSON_AND_SSE, 'x-user': user }, body: initializeBody() });
      expect((await as('ada')).status).toBe(200);
      expect((await as('bob')).status).toBe(200);
      expect((await as('ada')).status).toBe(429);
      // Long keys (kept as their digest) are told apart like short ones.
      expect((await as('x'.repeat(5_000))).status).toBe(200);
      expect((await as('x'.repeat(5_000))).status).toBe(429);
      expect((await as(`${'x'.repeat(4_999)}y`)).status).toBe(200);
    } finally {
      await Promise.all([app.close(), keyed.close()]);
    }
  });
});

describe('shutdown', () => {
  it('drains: new requests get 503 with Connection: close, a call in progress finishes', async () => {
    const app = await McpFactory.create(hostileModule());
    // A drain time far beyond the spec's deadlines: close() can end in time only by seeing the call finish.
    const url = await listening(app, { drainTimeoutMs: 60_000 });
    const session = await openSession(url);
    const running = rawRequest(url, { headers: headersOf(session), body: callBody(2, 'gated') });
    await within(events.gatedStarted.promise, 'the call to start');
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    // close() starts draining at once (the listening socket closes, the endpoint refuses), before it awaits.
    const refused = await rawRequest(url, { headers: headersOf(session), body: callBody(3, 'slow', { ms: 1 }) }).catch((error: Error & { code?: string }) => error);
    // Either the listening socket is already closed, or a kept connection is told to go away.
    if ('status' in refused) {
      expect(refused.status).toBe(503);
      expect(refused.headers.connection).toBe('close');
    } else expect(refused.code).toBe('ECONNREFUSED');
    expect(closed).toBe(false); // it waits for the call in progress
    events.gate.resolve();
    const answer = await running;
    expect(messagesOf(answer.body).at(-1).result.content[0].text).toBe('gate opened');
    await within(closing, 'close() to end once the call in progress has finished');
  });
});

describe('hostile HTTP input', () => {
  it('answers a malformed Host header with 400', async () => {
    const app = await McpFactory.create(hostileModule());
    const url = await listening(app);
    try {
      for (const host of ['evil.com@localhost', 'localhost:abc', '[::1', 'a b']) {
        const answer = await rawRequest(url, { headers: { ...JSON_AND_SSE, host }, body: initializeBody() });
        expect([host, answer.status, JSON.parse(answer.body).error.message]).toEqual([host, 400, 'Bad Request: invalid Host header.']);
      }
    } finally {
      await app.close();
    }
  });

  it('cuts a body trickled slower than the request timeout', async () => {
    const app = await McpFactory.create(hostileModule());
    const url = await listening(app, { requestTimeoutMs: 500 });
    const target = new URL(url);
    try {
      // At one byte per 100 ms the 1,000-byte body would take 100 s: only the 500 ms request timeout ends it
      // within the deadline (which just turns a hang into a readable failure).
      const req = httpRequest({
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { ...JSON_AND_SSE, 'content-length': '1000' },
        agent: false,
      });
      const timer = setInterval(() => req.write(' '), 100);
      req.on('close', () => clearInterval(timer));
      try {
        const outcome = await within(
          new Promise<string>((resolve) => {
            req.on('response', (res) => resolve(`status ${res.statusCode}`));
            req.on('error', (error: Error & { code?: string }) => resolve(error.code ?? error.message));
            req.write('{');
          }),
          'the server to cut the trickled body',
        );
        expect(['status 408', 'ECONNRESET', 'socket hang up']).toContain(outcome);
      } finally {
        req.destroy();
      }
    } finally {
      await app.close();
    }
  });
});
