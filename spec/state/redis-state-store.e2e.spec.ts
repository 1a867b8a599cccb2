import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Redis from 'ioredis';
import { McpFactory, RedisSessionStore, RedisStateStore, type McpApplication, type McpAuth } from 'mcp-reflect';
import { answer } from '../support/clients';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { startProxy, type RoundRobinProxy } from '../support/round-robin-proxy';
import { stateModule } from './state-fixtures';

const SECRET = 'a shared secret of at least thirty-two bytes, same on every instance';

interface Instance {
  readonly app: McpApplication;
  readonly redis: Redis;
  readonly url: URL;
}

describe('RedisStateStore: state set through one instance, read through another', () => {
  let redis: RedisProcess;
  let instances: Instance[];
  let proxy: RoundRobinProxy;
  const clients: Client[] = [];

  const start = async (): Promise<Instance> => {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const app = await McpFactory.create(
      stateModule({ store: new RedisStateStore(client, { prefix: 'state-spec:', maxBytesPerOwner: 200 }) }, { requestStateSecret: SECRET }),
    );
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, sessionStore: new RedisSessionStore(client, { prefix: 'state-spec:' }) });
    return { app, redis: client, url: new URL(await app.getUrl()) };
  };

  const connectAs = async (app: McpApplication, auth?: McpAuth) => {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await app.connect(serverTransport, auth ? { auth } : {});
    const client = new Client({ name: 'state-spec', version: '1.0.0' });
    await client.connect(clientTransport);
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => answer(await client.callTool({ name, arguments: args }));

  beforeAll(async () => {
    redis = await startRedis();
    instances = [await start(), await start()];
    proxy = await startProxy(instances.map((i) => i.url));
  }, 30_000);
  afterAll(async () => {
    for (const client of clients) await client.close();
    await proxy?.close();
    for (const instance of instances ?? []) {
      await instance.app.close();
      instance.redis.disconnect();
    }
    await redis?.stop();
  });

  it('keeps a 2025-11-25 session’s state whichever instance serves each call (round-robin)', async () => {
    const client = new Client({ name: 'state-spec', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    clients.push(client);
    const before = [...proxy.served];
    for (const item of ['a', 'b', 'c', 'd']) await call(client, 'add', { item });
    expect(await call(client, 'show')).toEqual({ text: '["a","b","c","d"]', isError: false });
    // Both instances served calls of the session.
    expect(proxy.served.every((count, i) => count > before[i])).toBe(true);
    const other = new Client({ name: 'state-spec', version: '1.0.0' });
    await other.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    clients.push(other);
    expect(await call(other, 'show')).toEqual({ text: 'null', isError: false });
  });

  it('keeps a verified caller’s state across instances and connections, and another caller’s apart', async () => {
    const alice: McpAuth = { token: 't', clientId: 'shop-app', subject: 'alice', scopes: [], claims: {} };
    await call(await connectAs(instances[0].app, alice), 'add', { item: 'tea' });
    expect(await call(await connectAs(instances[1].app, alice), 'show')).toEqual({ text: '["tea"]', isError: false });
    expect(await call(await connectAs(instances[1].app, { ...alice, subject: 'bob' }), 'show')).toEqual({ text: 'null', isError: false });
    expect(await call(await connectAs(instances[1].app, alice), 'clear')).toEqual({ text: 'true', isError: false });
    expect(await call(await connectAs(instances[0].app, alice), 'show')).toEqual({ text: 'null', isError: false });
  });

  it('bounds an owner’s bytes in Redis, counting a replaced value once, and expires values with their TTL', async () => {
    const store = new RedisStateStore(instances[0].redis, { prefix: 'state-spec:', maxBytesPerOwner: 32 });
    await store.set('o', 'a', '"0123456789"', 60_000);
    await store.set('o', 'a', '"0123456789"', 60_000);
    await store.set('o', 'b', '"0123456789"', 60_000);
    await expect(store.set('o', 'c', '"0123456789"', 60_000)).rejects.toMatchObject({ code: 'STATE_LIMIT' });
    await store.set('o', 'short', '1', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await store.get('o', 'short')).toBeUndefined();
    expect(await store.get('o', 'a')).toBe('"0123456789"');
    expect(await store.delete('o', 'a')).toBe(true);
    await store.set('o', 'c', '"0123456789"', 60_000);
  });
});
