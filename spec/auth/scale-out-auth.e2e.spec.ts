import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Redis from 'ioredis';
import { Injectable, McpFactory, McpModule, Module, Param, RedisSessionStore, RedisEventStore, Tool, type McpApplication, type McpAuth } from 'mcp-reflect';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { startProxy, type RoundRobinProxy } from '../support/round-robin-proxy';
import { JSON_AND_SSE } from '../support/http-helpers';

@Injectable()
class Echo {
  @Tool()
  echo(@Param() text: string): string {
    return text;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'bound', version: '1.0.0', requestStateSecret: 'a shared secret of at least thirty-two bytes, same everywhere' })], providers: [Echo] })
class BoundModule {}

const RESOURCE = 'https://mcp.example.com/mcp';
/** The token is the subject's name. */
const verify = async (token: string): Promise<McpAuth> => {
  const claims = { sub: token, aud: RESOURCE, iss: 'https://as.example.com', exp: Math.floor(Date.now() / 1000) + 600 };
  return { subject: token, clientId: 'cli', scopes: [], expiresAt: claims.exp, issuer: claims.iss, claims, token };
};

/** Session binding survives scale-out: the session store keeps whose a session is, every instance checks it. */
describe('session binding across instances (Redis session store)', () => {
  let redis: RedisProcess;
  const instances: { app: McpApplication; url: string; client: Redis }[] = [];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    redis = await startRedis();
    for (let i = 0; i < 2; i++) {
      const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      const app = await McpFactory.create(BoundModule);
      await app.listen({
        transport: 'http',
        port: 0,
        sessionStore: new RedisSessionStore(client, { prefix: 'bound:' }),
        eventStore: new RedisEventStore(client, { prefix: 'bound:' }),
        auth: { issuer: 'https://as.example.com', resource: RESOURCE, verify },
      });
      instances.push({ app, url: await app.getUrl(), client });
    }
    proxy = await startProxy(instances.map((i) => new URL(i.url)));
  }, 30_000);
  afterAll(async () => {
    await proxy?.close();
    for (const instance of instances) {
      await instance.app.close();
      instance.client.disconnect();
    }
    await redis?.stop();
  });

  const post = (url: string, token: string, session: string, body: object) =>
    fetch(url, {
      method: 'POST',
      headers: { ...JSON_AND_SSE, authorization: `Bearer ${token}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(body),
    });

  it("serves alice's session on every instance, and refuses bob on each of them as if it did not exist", async () => {
    const alice = new Client({ name: 'alice', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(proxy.url), { requestInit: { headers: { authorization: 'Bearer alice' } } });
    await alice.connect(transport);
    for (let i = 0; i < 4; i++) expect((await alice.callTool({ name: 'echo', arguments: { text: `a${i}` } })).content).toEqual([{ type: 'text', text: `a${i}` }]);
    const session = transport.sessionId!;
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'stolen' } } };
    const unknown = await post(instances[0].url, 'bob', 'no-such-session', call);
    const unknownBody = await unknown.text();
    for (const { url } of instances) {
      const refused = await post(url, 'bob', session, call);
      expect(refused.status).toBe(unknown.status);
      expect(await refused.text()).toBe(unknownBody);
    }
    expect(unknown.status).toBe(404);
    // Alice goes on, wherever her requests land.
    expect((await alice.callTool({ name: 'echo', arguments: { text: 'still mine' } })).content).toEqual([{ type: 'text', text: 'still mine' }]);
    await alice.close();
  });
});
