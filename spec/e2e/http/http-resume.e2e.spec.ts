import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { Context, Ctx, InMemoryEventStore, Injectable, McpFactory, McpModule, Module, Tool } from 'mcp-reflect';
import { initializeBody, JSON_AND_SSE, messagesOf, openSession, rawRequest } from '../../support/http-helpers';
import { deferred, within } from '../../support/waiting';

/** Opened by the spec once the client's stream has dropped: the call goes on only then. */
let release = deferred();

@Injectable()
class SlowTools {
  @Tool()
  async slow(@Ctx() ctx: Context): Promise<string> {
    await ctx.reportProgress(1, 3);
    await release.promise;
    await ctx.reportProgress(2, 3);
    return 'finished';
  }
}

/** The in-memory store, telling when the answer to request `id` has been kept (the call is over). */
class WatchedEventStore extends InMemoryEventStore {
  readonly answered = new Map<string | number, () => void>();

  override async storeEvent(sessionId: string, streamId: string, message: Parameters<InMemoryEventStore['storeEvent']>[2]): Promise<string> {
    const eventId = await super.storeEvent(sessionId, streamId, message);
    if ('id' in message && message.id !== undefined && ('result' in message || 'error' in message)) this.answered.get(message.id)?.();
    return eventId;
  }

  answerOf(id: string | number): Promise<void> {
    return new Promise((resolve) => this.answered.set(id, resolve));
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'resume', version: '1.0.0' })], providers: [SlowTools] })
class ResumeModule {}

/** POSTs a call and drops the SSE stream right after its first event, returning that event's id. */
function postAndDrop(url: string, headers: Record<string, string>, body: string): Promise<string> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent: false },
      (res) => {
        let seen = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          seen += chunk;
          const id = /^id: (.+)$/m.exec(seen)?.[1];
          if (id && seen.includes('progress')) {
            res.destroy(); // the connection drops mid-call
            resolve(id.trim());
          }
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('resumable SSE streams (Last-Event-ID)', () => {
  it('replays what the client missed, result included, after its stream dropped', async () => {
    release = deferred();
    const eventStore = new WatchedEventStore();
    const app = await McpFactory.create(ResumeModule);
    await app.listen({ transport: 'http', port: 0, eventStore });
    const url = await app.getUrl();
    try {
      const session = await openSession(url);
      const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      const call = JSON.stringify({
        jsonrpc: '2.0',
        id: 42,
        method: 'tools/call',
        params: { name: 'slow', arguments: {}, _meta: { progressToken: 'p1' } },
      });
      const kept = eventStore.answerOf(42);
      const lastEventId = await postAndDrop(url, headers, call);
      release.resolve(); // the call finishes while nobody listens
      await within(kept, 'the answer to be kept in the event store');
      const resumed = await rawRequest(url, {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', 'last-event-id': lastEventId },
      }).catch((error: Error) => ({ status: 0, body: String(error) }));
      const messages = messagesOf(resumed.body);
      expect(messages.some((m) => m.method === 'notifications/progress' && m.params.progress === 2)).toBe(true);
      expect(messages.find((m) => m.id === 42)?.result.content).toEqual([{ type: 'text', text: 'finished' }]);
    } finally {
      release.resolve();
      await app.close();
    }
  });

  it('keeps no events with eventStore: false: no event ids are sent, and the calls are answered as usual', async () => {
    const app = await McpFactory.create(ResumeModule);
    await app.listen({ transport: 'http', port: 0, eventStore: false });
    const url = await app.getUrl();
    try {
      const init = await rawRequest(url, { headers: JSON_AND_SSE, body: initializeBody() });
      expect(messagesOf(init.body)[0]?.result.serverInfo.name).toBe('resume');
      expect(init.body).not.toMatch(/^id: /m); // nothing a client could resume from
      const session = init.headers['mcp-session-id'] as string;
      const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      await rawRequest(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      const listed = await rawRequest(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
      expect(listed.body).not.toMatch(/^id: /m);
      expect(messagesOf(listed.body)[0]?.result.tools.map((t: { name: string }) => t.name)).toEqual(['slow']);
    } finally {
      await app.close();
    }
  });

  it('sends event ids by default, so that the same exchange can be resumed', async () => {
    const app = await McpFactory.create(ResumeModule);
    await app.listen({ transport: 'http', port: 0 });
    try {
      const init = await rawRequest(await app.getUrl(), { headers: JSON_AND_SSE, body: initializeBody() });
      expect(init.body).toMatch(/^id: .+$/m);
    } finally {
      await app.close();
    }
  });
});
