import { BootstrapError, InMemoryStateStore, McpFactory, type McpApplication } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { answer } from '../support/clients';
import { modernClient } from '../tasks/modern-wire';
import { stateModule } from './state-fixtures';

const call = async (client: TestClient, name: string, args: Record<string, unknown> = {}) => answer(await client.callTool({ name, arguments: args }));

describe('ctx.state in memory', () => {
  let app: McpApplication;
  const clients: TestClient[] = [];
  const connect = async (options: Parameters<typeof createTestClient>[1] = {}) => {
    const client = await createTestClient(app, options);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    app = await McpFactory.create(stateModule({ store: new InMemoryStateStore({ maxBytesPerOwner: 200 }) }));
  });
  afterAll(async () => {
    await app.close();
  });

  it('keeps a connection’s values between its calls, and never shows them to another connection', async () => {
    const [one, other] = [await connect(), await connect()];
    expect(await call(one, 'add', { item: 'apple' })).toEqual({ text: 'apple', isError: false });
    expect(await call(one, 'add', { item: 'pear' })).toEqual({ text: 'apple,pear', isError: false });
    expect(await call(one, 'show')).toEqual({ text: '["apple","pear"]', isError: false });
    expect(await call(other, 'show')).toEqual({ text: 'null', isError: false });
    expect(await call(one, 'clear')).toEqual({ text: 'true', isError: false });
    expect(await call(one, 'clear')).toEqual({ text: 'false', isError: false });
    expect(await call(one, 'show')).toEqual({ text: 'null', isError: false });
  });

  it('keys the state of a verified caller by its subject and client, whichever connection (and era) it comes on', async () => {
    const alice = await connect({ auth: { subject: 'alice', clientId: 'shop-app' } });
    await call(alice, 'add', { item: 'tea' });
    const again = await connect({ auth: { subject: 'alice', clientId: 'shop-app' }, protocolVersion: '2026-07-28' });
    expect(await call(again, 'show')).toEqual({ text: '["tea"]', isError: false });
    // Another client of the same user, and another user of the same client, have a state of their own.
    expect(await call(await connect({ auth: { subject: 'alice', clientId: 'other-app' } }), 'show')).toEqual({ text: 'null', isError: false });
    expect(await call(await connect({ auth: { subject: 'bob', clientId: 'shop-app' } }), 'show')).toEqual({ text: 'null', isError: false });
  });

  it('refuses a value that would pass the caller’s byte budget, naming the budget and the fix, and keeps the rest', async () => {
    const client = await connect();
    expect(await call(client, 'keep', { key: 'a', text: 'x'.repeat(100) })).toEqual({ text: 'kept', isError: false });
    expect(await call(client, 'keep', { key: 'b', text: 'x'.repeat(100) })).toEqual({
      text: 'Cannot keep this value: the state of this caller would pass 200 bytes, the most it may hold. Delete keys it no longer needs (ctx.state.delete), or keep smaller values.',
      isError: true,
    });
    // Replacing a value counts the new one instead of the old.
    expect(await call(client, 'keep', { key: 'a', text: 'y'.repeat(150) })).toEqual({ text: 'kept', isError: false });
  });
});

describe('ctx.state over HTTP', () => {
  let app: McpApplication;
  beforeAll(async () => {
    app = await McpFactory.create(stateModule());
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses on 2026-07-28 without auth (no session, no identity: the state would be shared by every anonymous caller)', async () => {
    const send = modernClient(await app.getUrl(), {});
    const { result } = await send('tools/call', { name: 'add', arguments: { item: 'apple' } });
    expect(result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text:
            'Cannot keep state for this caller: it has no session and no verified identity, so its state would be shared with every other anonymous caller. ' +
            'Connect over stdio or stateful HTTP (2025-11-25 sessions), or serve with auth so that state is kept per user (docs/state.md).',
        },
      ],
    });
  });
});

describe('ctx.state options', () => {
  it('fails the bootstrap on a TTL that is not a whole number of milliseconds', async () => {
    const failure = await McpFactory.create(stateModule({ ttlMs: 0 })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BootstrapError);
    expect(failure).toMatchObject({
      code: 'INVALID_OPTION',
      message: 'Cannot use McpModule.forRoot({ state: { ttlMs: 0 } }): it must be a whole number of at least 1.\nFix: give a number of milliseconds, e.g. 86400000, or leave it out.',
    });
  });
});
