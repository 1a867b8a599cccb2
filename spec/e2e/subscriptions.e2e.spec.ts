import 'reflect-metadata';
import { Context, Ctx, Injectable, McpFactory, McpModule, Module, Param, Resource, ResourceTemplate, Tool, type McpApplication } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { Arrivals, roundTrip } from '../support/waiting';

let version = 1;

@Injectable()
class Settings {
  @Resource('config://app')
  config(): string {
    return `version ${version}`;
  }

  @Resource('config://other')
  other(): string {
    return 'other';
  }

  @ResourceTemplate('users://{id}')
  user(@Param('id') id: string): string {
    return `user ${id}`;
  }

  @Tool({ description: 'Bumps the version and tells subscribers' })
  async bump(@Param() uri: string, @Ctx() ctx: Context): Promise<string> {
    version++;
    await ctx.notifyResourceUpdated(uri);
    return `now ${version}`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'subscriptions', version: '1.0.0' })], providers: [Settings] })
class SubscriptionModule {}

/** Records the URIs of the notifications/resources/updated a client receives. */
function updatesOf(client: TestClient): Arrivals<string> {
  const uris = new Arrivals<string>();
  client.setNotificationHandler('notifications/resources/updated', (n) => uris.push(n.params.uri));
  return uris;
}

/** After a round trip with each client, whatever the server sent them before has arrived: "nothing (more)" holds. */
const settle = async (...clients: TestClient[]) => {
  for (const client of clients) await roundTrip(client);
};

describe('resources/subscribe and notifications/resources/updated (2025-11-25)', () => {
  let app: McpApplication;
  let a: TestClient;
  let b: TestClient;

  beforeEach(async () => {
    app = await McpFactory.create(SubscriptionModule);
    a = await createTestClient(app);
    b = await createTestClient(app);
  });

  afterEach(async () => {
    await b.close();
    await a.close(); // closes the application too
  });

  it('declares resources.subscribe', () => {
    expect(a.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
  });

  it('app.notifyResourceUpdated(uri) reaches only the sessions subscribed to that URI', async () => {
    const toA = updatesOf(a);
    const toB = updatesOf(b);
    await a.subscribeResource({ uri: 'config://app' });
    await b.subscribeResource({ uri: 'config://other' });

    await app.notifyResourceUpdated('config://app');
    await toA.until(1);
    await settle(a, b);
    expect(toA.items).toEqual(['config://app']);
    expect(toB.items).toEqual([]);

    await app.notifyResourceUpdated('config://other');
    await app.notifyResourceUpdated('config://nobody-listens');
    await toB.until(1);
    await settle(a, b);
    expect(toA.items).toEqual(['config://app']);
    expect(toB.items).toEqual(['config://other']);
  });

  it('works for concrete URIs of a template, matched exactly', async () => {
    const toA = updatesOf(a);
    await a.subscribeResource({ uri: 'users://7' });
    await app.notifyResourceUpdated('users://8');
    await app.notifyResourceUpdated('users://7');
    await toA.until(1);
    await settle(a);
    expect(toA.items).toEqual(['users://7']);
  });

  it('a tool calling ctx.notifyResourceUpdated(uri) reaches subscribers, including other sessions', async () => {
    const toA = updatesOf(a);
    const toB = updatesOf(b);
    await b.subscribeResource({ uri: 'config://app' });

    const result = await a.callTool({ name: 'bump', arguments: { uri: 'config://app' } });
    expect(result.isError).toBeFalsy();
    await toB.until(1);
    await settle(a, b);
    expect(toA.items).toEqual([]); // the caller did not subscribe
    expect(toB.items).toEqual(['config://app']);
    expect((await b.readResource({ uri: 'config://app' })).contents).toEqual([
      { uri: 'config://app', mimeType: 'text/plain', text: `version ${version}` },
    ]);
  });

  it('both subscribed sessions receive one notification each', async () => {
    const toA = updatesOf(a);
    const toB = updatesOf(b);
    await a.subscribeResource({ uri: 'config://app' });
    await a.subscribeResource({ uri: 'config://app' }); // subscribing twice is one subscription
    await b.subscribeResource({ uri: 'config://app' });
    await app.notifyResourceUpdated('config://app');
    await toA.until(1);
    await toB.until(1);
    await settle(a, b);
    expect(toA.items).toEqual(['config://app']);
    expect(toB.items).toEqual(['config://app']);
  });

  it('resources/unsubscribe stops them', async () => {
    const toA = updatesOf(a);
    const toB = updatesOf(b);
    await a.subscribeResource({ uri: 'config://app' });
    await b.subscribeResource({ uri: 'config://app' });
    await a.unsubscribeResource({ uri: 'config://app' });

    await app.notifyResourceUpdated('config://app');
    await b.callTool({ name: 'bump', arguments: { uri: 'config://app' } });
    await toB.until(2);
    await settle(a, b);
    expect(toA.items).toEqual([]);
    expect(toB.items).toEqual(['config://app', 'config://app']);

    await b.unsubscribeResource({ uri: 'config://app' });
    await b.unsubscribeResource({ uri: 'config://never-subscribed' }); // harmless
    await app.notifyResourceUpdated('config://app');
    await settle(b);
    expect(toB.items).toEqual(['config://app', 'config://app']);
  });

  it('a closed session no longer counts, and the others still receive', async () => {
    const c = await createTestClient(app);
    const toB = updatesOf(b);
    await c.subscribeResource({ uri: 'config://app' });
    await b.subscribeResource({ uri: 'config://app' });
    // Close only c's side of the connection (TestClient.close would close the shared application).
    await Object.getPrototypeOf(c).close.call(c);
    await expect(app.notifyResourceUpdated('config://app')).resolves.toBeUndefined();
    await toB.until(1);
    await settle(b);
    expect(toB.items).toEqual(['config://app']);
  });
});

describe('subscriptions/listen with resourceSubscriptions (2026-07-28)', () => {
  it('resources/subscribe does not exist in the modern era', async () => {
    const client = await createTestClient(SubscriptionModule, { protocolVersion: '2026-07-28' });
    try {
      await expect(client.subscribeResource({ uri: 'config://app' })).rejects.toThrow(
        "Method 'resources/subscribe' is not supported by the negotiated protocol version (wire era 2026-07-28)",
      );
    } finally {
      await client.close();
    }
  });

  it('notifyResourceUpdated reaches a session listening for that URI, and only it', async () => {
    const app = await McpFactory.create(SubscriptionModule);
    const a = await createTestClient(app, { protocolVersion: '2026-07-28' });
    const b = await createTestClient(app, { protocolVersion: '2026-07-28' });
    try {
      const toA = updatesOf(a);
      const toB = updatesOf(b);
      const listenA = await a.listen({ resourceSubscriptions: ['config://app'] });
      const listenB = await b.listen({ resourceSubscriptions: ['config://other'] });
      expect(listenA.honoredFilter).toEqual({ resourceSubscriptions: ['config://app'] });

      await app.notifyResourceUpdated('config://app');
      await b.callTool({ name: 'bump', arguments: { uri: 'config://app' } });
      await toA.until(2);
      await settle(a, b);
      expect(toA.items).toEqual(['config://app', 'config://app']);
      expect(toB.items).toEqual([]);

      await listenA.close();
      await app.notifyResourceUpdated('config://app');
      await settle(a);
      expect(toA.items).toEqual(['config://app', 'config://app']);
      await listenB.close();
    } finally {
      await b.close();
      await a.close();
    }
  });
});
