import { runInNewContext } from 'node:vm';
import { toPeerRealm } from '../../lib/runtime/peer-realm';

/**
 * Plain data for a peer of another realm (oidc-provider loaded by Node outside jest's sandbox): objects and arrays
 * copied into the peer's `Object` and `Array`, everything else as it is. A new vm context stands for the other realm.
 */
describe('toPeerRealm', () => {
  const realm = runInNewContext('({ Object, Array, Peer: class Peer extends Array {}, isPlain: (value) => !!value && value.constructor === Object })') as {
    Object: ObjectConstructor;
    Array: ArrayConstructor;
    Peer: new () => unknown;
    isPlain(value: unknown): boolean;
  };

  it("makes plain objects and arrays, at any depth, in the realm of the peer's class", () => {
    const toPeer = toPeerRealm(realm.Peer);
    const hook = () => 1;
    const url = new URL('https://example.com/');
    const given = { features: { registration: { enabled: true } }, scopes: ['openid', { nested: true }], hook, url, none: null };
    expect(realm.isPlain(given.features)).toBe(false);
    const copied = toPeer(given);
    expect(realm.isPlain(copied)).toBe(true);
    expect(realm.isPlain(copied.features.registration)).toBe(true);
    expect(copied.scopes).toBeInstanceOf(realm.Array);
    expect(realm.isPlain(copied.scopes[1])).toBe(true);
    expect(copied.hook).toBe(hook);
    expect(copied.url).toBe(url);
    expect(copied.none).toBeNull();
    expect(JSON.stringify(copied)).toBe(JSON.stringify(given));
  });

  it('keeps a `__proto__` key as a property (a payload from JSON.parse)', () => {
    const copied = toPeerRealm(realm.Peer)(JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>);
    expect(Object.keys(copied)).toEqual(['__proto__', 'a']);
    expect((copied as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('returns values untouched for a peer of this realm', () => {
    const value = { a: [1] };
    expect(toPeerRealm(class Local {})(value)).toBe(value);
  });
});
