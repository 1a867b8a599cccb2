import 'reflect-metadata';
import { once } from 'node:events';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Redis from 'ioredis';
import {
  Context,
  Ctx,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  RedisBus,
  RedisEventStore,
  RedisSessionStore,
  Tool,
  type McpApplication,
} from 'mcp-reflect';
import { startRedis, type RedisProcess } from '../../support/redis-server';
import { startProxy, type RoundRobinProxy } from '../../support/round-robin-proxy';
import { JSON_AND_SSE, messagesOf, openSession, rawRequest, readStream, serverOpensGetStream } from '../../support/http-helpers';
import { within } from '../../support/waiting';

@Injectable()
class ScaleTools {
  @Tool()
  echo(@Param() text: string): string {
    return text;
  }

  @Tool()
  async steps(@Param() count: number, @Param() pauseMs: number, @Ctx() ctx: Context): Promise<string> {
    for (let i = 1; i <= count; i++) {
      await ctx.reportProgress(i, count);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    return `done ${count}`;
  }

  @Tool()
  beta(): string {
    return 'beta';
  }
}

const SECRET = 'a shared secret of at least thirty-two bytes, same on every instance';
const warnings: string[] = [];

@Module({
  imports: [
    McpModule.forRoot({ name: 'scale', version: '1.0.0', requestStateSecret: SECRET, logger: { error() {}, warn: (message) => void warnings.push(message) } }),
  ],
  providers: [ScaleTools],
})
class ScaleModule {}

interface Instance {
  readonly app: McpApplication;
  readonly url: URL;
  readonly redis: Redis;
}

describe('scale-out on Redis', () => {
  let redis: RedisProcess;
  let instances: Instance[];
  let proxy: RoundRobinProxy;

  const startInstance = async (): Promise<Instance> => {
    // Commands fail fast while Redis is away (one retry), and the client reconnects on its own.
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1, retryStrategy: () => 100 });
    const app = await McpFactory.create(ScaleModule);
    await app.useBus(new RedisBus(client, { prefix: 'scale:' }));
    await app.listen({
      transport: 'http',
      port: 0,
      eventStore: new RedisEventStore(client, { prefix: 'scale:' }),
      sessionStore: new RedisSessionStore(client, { prefix: 'scale:' }),
    });
    return { app, url: new URL(await app.getUrl()), redis: client };
  };

  const stopInstance = async (instance: Instance) => {
    await instance.app.close();
    instance.redis.disconnect();
  };

  beforeAll(async () => {
    redis = await startRedis();
    instances = await Promise.all([startInstance(), startInstance(), startInstance()]);
    proxy = await startProxy(instances.map((i) => i.url));
  }, 30_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all((instances ?? []).map(stopInstance));
    await redis?.stop();
  });

  const connect = async (name: string) => {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    return client;
  };

  it('serves sessions × calls round-robin across three instances with none lost', async () => {
    const sessions = 20;
    const calls = 10;
    const results = await Promise.all(
      Array.from({ length: sessions }, async (_, s) => {
        const client = await connect(`c${s}`);
        const texts: string[] = [];
        for (let c = 0; c < calls; c++) {
          const result = await client.callTool({ name: 'echo', arguments: { text: `${s}:${c}` } });
          texts.push((result.content as { text: string }[])[0].text);
        }
        await client.close();
        return texts;
      }),
    );
    results.forEach((texts, s) => expect(texts).toEqual(Array.from({ length: calls }, (_, c) => `${s}:${c}`)));
    // Every instance served requests of sessions it did not open.
    expect(proxy.served.every((count) => count > sessions)).toBe(true);
  }, 60_000);

  it('carries list_changed from one instance to a client whose stream is on another', async () => {
    const stream = serverOpensGetStream();
    const client = await connect('listener');
    try {
      const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
      await within(stream.opened, 'the standing GET stream to open');
      for (const instance of instances) instance.app.tools.disable('beta');
      await within(changed, 'list_changed on the stream of another instance');
    } finally {
      stream.restore();
      for (const instance of instances) instance.app.tools.enable('beta');
      await client.close();
    }
  });

  it('replays, through another instance, the events a client missed when its instance died', async () => {
    const [first, second] = instances;
    const session = await openSession(first.url.href);
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'steps', arguments: { count: 3, pauseMs: 50 }, _meta: { progressToken: 'p' } } });
    const call = await rawRequest(first.url.href, { headers, body });
    const events = [...call.body.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
    expect(messagesOf(call.body).at(-1).result.content[0].text).toBe('done 3');
    // The instance goes away; the client comes back on another with the id of the first event it had.
    await stopInstance(first);
    instances = instances.filter((i) => i !== first);
    const replay = await readStream(
      second.url.href,
      { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', 'last-event-id': events[0] },
      (messages) => messages.some((m) => m.id === 7), // up to the result
    );
    expect(replay.status).toBe(200);
    const replayed = messagesOf(replay.body);
    expect(replayed.map((m) => m.method ?? `result ${m.id}`)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'result 7',
    ]);
    // And the session goes on there.
    const next = await rawRequest(second.url.href, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } }) });
    expect(messagesOf(next.body).at(-1).result.content[0].text).toBe('still here');
  });

  it('keeps serving while Redis is away, says so in the log, and recovers when it is back', async () => {
    const live = instances[instances.length - 1];
    const client = new Client({ name: 'steady', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(live.url));
    try {
      warnings.length = 0;
      await redis.stop();
      // The session lives on this instance: calls go on, their events are just not kept.
      const during = await client.callTool({ name: 'echo', arguments: { text: 'no redis' } });
      expect((during.content as { text: string }[])[0].text).toBe('no redis');
      expect(warnings.some((w) => w.startsWith('HTTP: the event store could not keep an event (it cannot be replayed):'))).toBe(true);
      // A session opened now works where it was opened (it could not be remembered for other instances).
      const newcomer = new Client({ name: 'newcomer', version: '1.0.0' });
      await newcomer.connect(new StreamableHTTPClientTransport(live.url));
      expect(((await newcomer.callTool({ name: 'echo', arguments: { text: 'hi' } })).content as { text: string }[])[0].text).toBe('hi');
      expect(warnings.some((w) => w.startsWith('HTTP: could not remember a session:'))).toBe(true);
      await newcomer.close();

      await redis.start();
      await within(
        Promise.all(instances.map((i) => (i.redis.status === 'ready' ? undefined : once(i.redis, 'ready')))),
        'every instance to reconnect to Redis',
      );
      // Round-robin again: new sessions move between instances through Redis.
      const roaming = await connect('roaming');
      for (let i = 0; i < 4; i++) {
        const result = await roaming.callTool({ name: 'echo', arguments: { text: `back ${i}` } });
        expect((result.content as { text: string }[])[0].text).toBe(`back ${i}`);
      }
      await roaming.close();
    } finally {
      await client.close();
    }
  }, 30_000);
});
