import { InMemoryStateStore, StateError } from 'mcp-reflect';

describe('InMemoryStateStore', () => {
  it('forgets a value after its TTL, and frees its bytes for the owner', async () => {
    let now = 1_000;
    const store = new InMemoryStateStore({ maxBytesPerOwner: 20, now: () => now });
    await store.set('o', 'k', '"0123456789"', 100);
    expect(await store.get('o', 'k')).toBe('"0123456789"');
    await expect(store.set('o', 'l', '"0123456789"', 100)).rejects.toBeInstanceOf(StateError);
    now += 100;
    expect(await store.get('o', 'k')).toBeUndefined();
    await store.set('o', 'l', '"0123456789"', 100);
    expect(await store.delete('o', 'k')).toBe(false);
    expect(await store.get('other', 'l')).toBeUndefined();
  });

  it('bounds every owner together (maxBytes), sweeping expired values first', async () => {
    let now = 0;
    const store = new InMemoryStateStore({ maxBytes: 10, now: () => now });
    await store.set('a', 'k', '"1234"', 10);
    await expect(store.set('b', 'k', '"1234"', 10)).rejects.toMatchObject({ code: 'STATE_LIMIT', message: 'Cannot keep this value: the state store is full (10 bytes). Try again later.' });
    now = 10;
    await store.set('b', 'k', '"1234"', 10);
    expect(await store.get('b', 'k')).toBe('"1234"');
  });
});
