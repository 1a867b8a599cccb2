import { hostRealmOf } from './peer';

/**
 * Plain data handed to a peer that runs in another JavaScript realm than mcp-reflect.
 *
 * Under jest, mcp-reflect runs in jest's sandbox (a `vm` context with its own `Object` and `Array`), and an
 * ESM-only peer that jest's registry refuses is loaded by Node's own require, outside it (./peer.ts). Such a peer
 * sees the sandbox's objects as foreign: oidc-provider checks its options, `extraTokenClaims` results and more with
 * `value.constructor === Object`, and an object literal of the sandbox fails that ("TypeError:
 * features.attestClientAuth must be an own property").
 *
 * `toPeerRealm(peer)` (a module ./peer.ts loaded) gives the copier for it: when the host process loaded it, plain
 * objects and arrays are copied, deeply, into the host realm's `Object` and `Array`; functions, class instances (a
 * URL, a Buffer, a Response), primitives and null-prototype objects go as they are. When the peer runs in the
 * caller's realm (Node without jest, jest compiling the peer itself) it returns each value untouched.
 */
export type PeerRealmCopy = <T>(value: T) => T;

const same: PeerRealmCopy = (value) => value;

export function toPeerRealm(peer: object): PeerRealmCopy {
  const realm = hostRealmOf(peer);
  if (!realm) return same;
  const { Object: PeerObject, Array: PeerArray } = realm;
  return ((root: unknown) => {
    // One copy per object of the graph: a shared object stays shared, a cycle stays a cycle (never endless).
    const copies = new Map<object, unknown>();
    const copy = (value: unknown): unknown => {
      if (value === null || typeof value !== 'object') return value;
      const done = copies.get(value);
      if (done !== undefined) return done;
      if (Array.isArray(value)) {
        if (value.constructor !== Array) return value;
        const out = new PeerArray() as unknown[];
        copies.set(value, out);
        for (const item of value) out.push(copy(item));
        return out;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return value;
      const out = new PeerObject() as Record<string, unknown>;
      copies.set(value, out);
      // defineProperty: a `__proto__` key (JSON.parse makes one an own property) stays a property.
      for (const key of Object.keys(value)) Object.defineProperty(out, key, { value: copy((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
      return out;
    };
    return copy(root);
  }) as PeerRealmCopy;
}
