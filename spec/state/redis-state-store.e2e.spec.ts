import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Redis from 'ioredis';
import { McpFactory, RedisSessionStore, RedisStateStore, type McpApplication, type McpAuth } from 'mcp-reflect';
import { answer } from '../support/clients';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { startProxy, type RoundRobinProxy } from '../support/round-robin-proxy';
import { waitFor } from '../support/waiting';
import { stateModule } from './state-fixtures';

const SECRET = 'a shared secret of at least thirty-two bytes, same on every instance';
/** What the store counts per value beside its key and JSON (docs/state.md: what Redis holds for it). */
const OVERHEAD = 150;

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
      stateModule({ store: new RedisStateStore(client, { prefix: 'state-spec:', maxBytesPerOwner: 200 + OVERHEAD }) }, { requestStateSecret: SECRET }),
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
    // Room for a, b (13 bytes each) and short (6), each with the per-value overhead; not for a third 13.
    const store = new RedisStateStore(instances[0].redis, { prefix: 'state-spec:', maxBytesPerOwner: 13 + 13 + 6 + 3 * OVERHEAD });
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

  describe('an owner of 10,000 values', () => {
    const owner = 'many';
    const hash = `state-spec:state:{${owner}}`;
    const scriptsOver = async (client: Redis, micros: number) => {
      const entries = (await client.call('SLOWLOG', 'GET', '1000')) as [number, number, number, string[]][];
      return entries.filter(([, , duration, args]) => duration >= micros && String(args[0]).toUpperCase().startsWith('EVAL'));
    };

    it('sets a value in time that does not grow with its keys: no script reads the whole hash, none is slow', async () => {
      const client = instances[0].redis;
      const store = new RedisStateStore(client, { prefix: 'state-spec:', maxBytesPerOwner: 64 * 1024 * 1024 });
      // Before: every set read the whole hash (25 ms at 10,000 keys), so filling it took minutes.
      const deadline = Date.now() + 60_000;
      let kept = 0;
      while (kept < 10_000 && Date.now() < deadline) {
        await Promise.all(Array.from({ length: 500 }, (_, i) => store.set(owner, `k${kept + i}`, '1', 600_000)));
        kept += 500;
      }
      expect(kept).toBe(10_000);
      await client.call('CONFIG', 'SET', 'slowlog-log-slower-than', '5000');
      await client.call('SLOWLOG', 'RESET');
      for (let i = 0; i < 50; i++) await store.set(owner, i % 2 ? `k${i}` : `new${i}`, JSON.stringify({ i }), 600_000);
      for (let i = 0; i < 50; i++) expect(await store.get(owner, i % 2 ? `k${i}` : `new${i}`)).toBe(JSON.stringify({ i }));
      expect(await scriptsOver(client, 5_000)).toEqual([]);
      // What a set does in Redis, whatever the machine's speed (MONITOR shows the commands a script runs): a few
      // commands on single fields, never one that reads the whole hash.
      const watcher = new Redis(redis.url);
      const monitor = await watcher.monitor();
      try {
        const commands: string[] = [];
        monitor.on('monitor', (_time: string, args: string[], source: string) => void (source.includes('lua') && commands.push(String(args[0]).toUpperCase())));
        await store.set(owner, 'k7', '"again"', 600_000);
        await store.set(owner, 'fresh', '"new"', 600_000);
        await waitFor(async () => (commands.filter((name) => name === 'ZADD').length === 2 ? true : undefined), { what: 'the two sets to be seen', timeout: 5_000 });
        expect(commands.filter((name) => ['HGETALL', 'HVALS', 'HKEYS', 'HSCAN'].includes(name))).toEqual([]);
        expect(commands.length).toBeLessThan(40);
      } finally {
        monitor.disconnect();
        watcher.disconnect();
      }
    }, 120_000);

    it('counts what Redis holds for the values, within a factor of MEMORY USAGE, and refuses past the budget', async () => {
      const client = instances[0].redis;
      const usage = Number(await client.call('MEMORY', 'USAGE', hash, 'SAMPLES', '0')) + Number(await client.call('MEMORY', 'USAGE', `${hash}:expiries`, 'SAMPLES', '0'));
      const counted = Number(await client.call('HGET', hash, '#'));
      expect(usage).toBeGreaterThan(1024 * 1024);
      expect(counted / usage).toBeGreaterThan(0.5);
      expect(counted / usage).toBeLessThan(2);
      // An owner whose budget 10,000 tiny values would pass is refused long before (the key and JSON alone: 59 KB).
      const small = new RedisStateStore(client, { prefix: 'state-spec:', maxBytesPerOwner: 256 * 1024 });
      let kept = 0;
      await expect(
        (async () => {
          for (; kept < 10_000; kept++) await small.set('tiny', `k${kept}`, '1', 600_000);
        })(),
      ).rejects.toMatchObject({ code: 'STATE_LIMIT' });
      expect(kept).toBeLessThan(2_000);
    }, 60_000);
  });
});
