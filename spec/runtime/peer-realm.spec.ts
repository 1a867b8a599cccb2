import { runInThisContext } from 'node:vm';
import { loadPeer } from '../../lib/runtime/peer';
import { toPeerRealm } from '../../lib/runtime/peer-realm';

/**
 * Plain data for a peer that Node loaded outside jest's sandbox (the $ref parser here, oidc-provider under a
 * consumer's jest): objects and arrays copied into the host realm's `Object` and `Array`, everything else as it is.
 */
describe('toPeerRealm', () => {
  const host = runInThisContext('({ Object, Array, isPlain: (value) => !!value && value.constructor === Object })') as { Object: ObjectConstructor; Array: ArrayConstructor; isPlain(value: unknown): boolean };
  const refParser = () => loadPeer<object>('@apidevtools/json-schema-ref-parser', { feature: 'McpModule.fromOpenApi()' });

  it('makes plain objects and arrays, at any depth, in the realm of a peer the host loaded', () => {
    expect(host.Object).not.toBe(Object); // jest's sandbox: another realm
    const toPeer = toPeerRealm(refParser());
    const hook = () => 1;
    const url = new URL('https://example.com/');
    const given = { features: { registration: { enabled: true } }, scopes: ['openid', { nested: true }], hook, url, none: null };
    expect(host.isPlain(given.features)).toBe(false);
    const copied = toPeer(given);
    expect(host.isPlain(copied)).toBe(true);
    expect(host.isPlain(copied.features.registration)).toBe(true);
    expect(copied.scopes).toBeInstanceOf(host.Array);
    expect(host.isPlain(copied.scopes[1])).toBe(true);
    expect(copied.hook).toBe(hook);
    expect(copied.url).toBe(url);
    expect(copied.none).toBeNull();
    expect(JSON.stringify(copied)).toBe(JSON.stringify(given));
  });

  it('copies a cycle as a cycle and a shared object once (never recursing without end)', () => {
    const shared = { scope: 'openid' };
    const given: Record<string, unknown> = { a: shared, b: shared, list: [shared] };
    given.self = given;
    const copied = toPeerRealm(refParser())(given);
    expect(host.isPlain(copied)).toBe(true);
    expect(copied.self).toBe(copied);
    expect(copied.a).toBe(copied.b);
    expect((copied.list as unknown[])[0]).toBe(copied.a);
    expect(host.isPlain(copied.a)).toBe(true);
  });

  it('keeps a `__proto__` key as a property (a payload from JSON.parse)', () => {
    const copied = toPeerRealm(refParser())(JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>);
    expect(Object.keys(copied)).toEqual(['__proto__', 'a']);
    expect((copied as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("returns values untouched for a peer jest's registry loaded (the caller's realm)", () => {
    const value = { a: [1] };
    expect(toPeerRealm(loadPeer<object>('bullmq', { feature: 'RedisTaskQueue' }))(value)).toBe(value);
    expect(toPeerRealm(require('oidc-provider') as object)(value)).toBe(value);
  });
});
