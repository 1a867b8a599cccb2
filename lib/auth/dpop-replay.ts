import { LRUCache } from 'lru-cache';

/** Default bounds of the replay cache (docs/reliability.md, "DPoP proofs"). */
export const DPOP_MAX_PROOFS = 50_000;
export const DPOP_MAX_PROOFS_PER_KEY = 1_000;
/** The longest `jti` remembered; a longer one is refused (UUIDs are 36 characters, 256 random bits 43). */
export const MAX_JTI_LENGTH = 128;
/** The least time between two sweeps of aged-out proofs, made only when a bound is reached. */
const SWEEP_EVERY_MS = 1_000;

/** What recording a proof found: new (now remembered), seen before, or no room (its key's, or anyone's). */
export type Recorded = 'new' | 'replayed' | 'key-full' | 'full';

/**
 * The proofs (`jti`) seen lately, per client key (RFC 9449 §11.1): each is remembered until it is too old to be
 * accepted, so that it is never accepted twice. Bounded in all and per key, and a proof is never forgotten
 * before it ages out (that would let it be replayed): past a bound, new proofs are refused instead. A flood of
 * proofs signed with one key fills that key's share only, never another key's.
 */
export class ReplayCache {
  private readonly seen: LRUCache<string, string>;
  /** How many proofs each key has in `seen`. */
  private readonly perKey = new Map<string, number>();
  private swept = 0;

  constructor(
    private readonly maxProofs = DPOP_MAX_PROOFS,
    private readonly maxPerKey = DPOP_MAX_PROOFS_PER_KEY,
  ) {
    // `max` only as lru-cache's storage size: `record` refuses before it would evict anything.
    this.seen = new LRUCache<string, string>({
      max: maxProofs + 1,
      ttlAutopurge: false,
      // The value is the proof's key: one fewer of its proofs is remembered (aged out or swept).
      dispose: (jkt) => {
        const left = (this.perKey.get(jkt) ?? 1) - 1;
        if (left > 0) this.perKey.set(jkt, left);
        else this.perKey.delete(jkt);
      },
    });
  }

  /** Remembers the proof `jti` of the key `jkt` until `until` (epoch ms), unless seen before or there is no room. */
  record(jkt: string, jti: string, until: number): Recorded {
    const id = `${jkt}.${jti}`;
    if (this.seen.get(id) !== undefined) return 'replayed';
    if ((this.perKey.get(jkt) ?? 0) >= this.maxPerKey && !this.sweep(() => (this.perKey.get(jkt) ?? 0) < this.maxPerKey)) return 'key-full';
    if (this.seen.size >= this.maxProofs && !this.sweep(() => this.seen.size < this.maxProofs)) return 'full';
    this.seen.set(id, jkt, { ttl: Math.max(1, until - Date.now()) });
    this.perKey.set(jkt, (this.perKey.get(jkt) ?? 0) + 1);
    return 'new';
  }

  /** Proofs remembered now (aged-out ones included until swept). */
  get size(): number {
    return this.seen.size;
  }

  /** Drops aged-out proofs (at most once a second: a sweep reads every entry), then whether there is room. */
  private sweep(room: () => boolean): boolean {
    const now = Date.now();
    if (now - this.swept >= SWEEP_EVERY_MS) {
      this.swept = now;
      this.seen.purgeStale();
    }
    return room();
  }
}
