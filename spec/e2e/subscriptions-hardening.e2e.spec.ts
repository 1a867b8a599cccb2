import 'reflect-metadata';
import { Injectable, McpFactory, McpModule, Module, Param, Resource, ResourceTemplate, type McpApplication } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { Arrivals, roundTrip } from '../support/waiting';

@Injectable()
class Catalogue {
  @Resource('config://app')
  config(): string {
    return 'app';
  }

  @Resource('config://retired')
  retired(): string {
    return 'retired';
  }

  @ResourceTemplate('users://{id}/profile')
  user(@Param('id', { type: 'integer' }) id: number): string {
    return `user ${id}`;
  }
}

function catalogueModule(maxSubscriptionsPerSession?: number) {
  @Module({
    imports: [McpModule.forRoot({ name: 'subscriptions-hardening', version: '1.0.0', maxSubscriptionsPerSession })],
    providers: [Catalogue],
  })
  class CatalogueModule {}
  return CatalogueModule;
}

/** The JSON-RPC error a promise rejects with: code, message, data. */
async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: { code: number; message: string; data?: unknown }) => e,
  );
  if (!error) throw new Error('expected the request to fail');
  return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
}

describe('resources/subscribe accepts only URIs the server can read (2025-11-25)', () => {
  let app: McpApplication;
  let client: TestClient;

  beforeEach(async () => {
    app = await McpFactory.create(catalogueModule());
    client = await createTestClient(app);
  });
  afterEach(() => client.close());

  it('refuses an unknown URI with the answer resources/read gives', async () => {
    const read = await failure(client.readResource({ uri: 'config://nope' }));
    const subscribe = await failure(client.subscribeResource({ uri: 'config://nope' }));
    expect(subscribe).toEqual({ code: -32602, message: 'Resource not found: config://nope', data: { uri: 'config://nope' } });
    expect(subscribe).toEqual(read);
  });

  it('accepts a static resource and any URI a template matches, and notifies it', async () => {
    const updates = new Arrivals<string>();
    client.setNotificationHandler('notifications/resources/updated', (n) => updates.push(n.params.uri));
    await expect(client.subscribeResource({ uri: 'config://app' })).resolves.toEqual({});
    // Matching is enough: the template's method, guards and validation do not run on subscribe.
    await expect(client.subscribeResource({ uri: 'users://42/profile' })).resolves.toEqual({});
    await expect(client.subscribeResource({ uri: 'users://abc/profile' })).resolves.toEqual({});
    expect((await failure(client.readResource({ uri: 'users://abc/profile' }))).message).toBe(
      "Invalid resource URI 'users://abc/profile' for template 'users://{id}/profile': id: must be an integer",
    );
    await app.notifyResourceUpdated('users://42/profile');
    await updates.until(1);
    await roundTrip(client); // and nothing more
    expect(updates.items).toEqual(['users://42/profile']);
  });

  it('refuses a disabled resource like resources/read does, and accepts it again once enabled', async () => {
    app.resources.disable('retired');
    expect(await failure(client.subscribeResource({ uri: 'config://retired' }))).toEqual({
      code: -32602,
      message: 'Resource not found: config://retired',
      data: { uri: 'config://retired' },
    });
    app.resources.enable('retired');
    await expect(client.subscribeResource({ uri: 'config://retired' })).resolves.toEqual({});
  });

  it('refuses a URI longer than 2048 characters before matching it', async () => {
    const long = `users://${'9'.repeat(2041)}/profile`; // 2,057 characters, and the template would match it
    expect(await failure(client.subscribeResource({ uri: long }))).toEqual({
      code: -32602,
      message: 'Cannot subscribe to a URI of 2057 characters: subscription URIs are at most 2048 characters long.',
    });
    const longest = `config://${'a'.repeat(2048 - 'config://'.length)}`;
    expect(longest).toHaveLength(2048);
    // At the limit the URI is matched (and here not found).
    expect((await failure(client.subscribeResource({ uri: longest }))).message).toBe(`Resource not found: ${longest}`);
  });

  it('unsubscribing stays harmless for any URI', async () => {
    await expect(client.unsubscribeResource({ uri: 'config://never-subscribed' })).resolves.toEqual({});
  });
});

describe('resources/subscribe is capped per session (maxSubscriptionsPerSession)', () => {
  it('refuses one more than the limit, does not count a URI twice, and frees a place on unsubscribe', async () => {
    const app = await McpFactory.create(catalogueModule(3));
    const a = await createTestClient(app);
    const b = await createTestClient(app);
    try {
      for (const id of [1, 2, 3]) await a.subscribeResource({ uri: `users://${id}/profile` });
      await a.subscribeResource({ uri: 'users://3/profile' }); // already held: takes no new place

      expect(await failure(a.subscribeResource({ uri: 'config://app' }))).toEqual({
        code: -32602,
        message:
          'Cannot subscribe to config://app: this session already holds 3 subscriptions, the most one session may hold. ' +
          'Unsubscribe from one (resources/unsubscribe) to free a place.',
        data: { uri: 'config://app' },
      });
      // Re-subscribing to a held URI at the limit is still fine.
      await expect(a.subscribeResource({ uri: 'users://1/profile' })).resolves.toEqual({});
      // The limit is per session.
      await expect(b.subscribeResource({ uri: 'config://app' })).resolves.toEqual({});

      await a.unsubscribeResource({ uri: 'users://2/profile' });
      await expect(a.subscribeResource({ uri: 'config://app' })).resolves.toEqual({});

      // The refused subscription was never held: only what was accepted is notified.
      const updates = new Arrivals<string>();
      a.setNotificationHandler('notifications/resources/updated', (n) => updates.push(n.params.uri));
      for (const uri of ['users://1/profile', 'users://2/profile', 'users://3/profile', 'config://app']) await app.notifyResourceUpdated(uri);
      await updates.until(3);
      await roundTrip(a); // and nothing more
      expect(updates.items).toEqual(['users://1/profile', 'users://3/profile', 'config://app']);
    } finally {
      await Object.getPrototypeOf(b).close.call(b); // b's side only; a.close() closes the application
      await a.close();
    }
  });

  it('allows 100 per session by default', async () => {
    const client = await createTestClient(catalogueModule());
    try {
      for (let id = 0; id < 100; id++) await client.subscribeResource({ uri: `users://${id}/profile` });
      expect((await failure(client.subscribeResource({ uri: 'users://100/profile' }))).message).toBe(
        'Cannot subscribe to users://100/profile: this session already holds 100 subscriptions, the most one session may hold. ' +
          'Unsubscribe from one (resources/unsubscribe) to free a place.',
      );
    } finally {
      await client.close();
    }
  });
});
