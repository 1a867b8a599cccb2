import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { Context, Ctx, Injectable, McpFactory, McpModule, Module, Tool } from 'mcp-reflect';
import { JSON_AND_SSE, messagesOf, openSession, rawRequest } from '../../support/http-helpers';

@Injectable()
class SlowTools {
  @Tool()
  async slow(@Ctx() ctx: Context): Promise<string> {
    await ctx.reportProgress(1, 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await ctx.reportProgress(2, 3);
    return 'finished';
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
    const app = await McpFactory.create(ResumeModule);
    await app.listen({ transport: 'http', port: 0 });
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
      const lastEventId = await postAndDrop(url, headers, call);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the call finishes while nobody listens
      const resumed = await rawRequest(url, {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', 'last-event-id': lastEventId },
      }).catch((error: Error) => ({ status: 0, body: String(error) }));
      const messages = messagesOf(resumed.body);
      expect(messages.some((m) => m.method === 'notifications/progress' && m.params.progress === 2)).toBe(true);
      expect(messages.find((m) => m.id === 42)?.result.content).toEqual([{ type: 'text', text: 'finished' }]);
    } finally {
      await app.close();
    }
  });
});
