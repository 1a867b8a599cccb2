/**
 * A Map bounded to `max` entries (and, with `weigh`, to `maxWeight` in all) that forgets the least recently
 * used entry first: every `get` that finds an entry and every `set` makes it the newest (a Map iterates in
 * insertion order, so the oldest is the first).
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();
  private weight = 0;
  /** The most recently used key: getting it again moves nothing. */
  private newest?: K;

  constructor(
    private readonly max: number,
    private readonly weigh: (value: V) => number = () => 0,
    private readonly maxWeight = Infinity,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The total weight of the entries (bytes, for a cache that weighs by size). */
  get total(): number {
    return this.weight;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined && this.newest !== key) {
      this.newest = key;
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    this.entries.set(key, value);
    this.newest = key;
    this.weight += this.weigh(value);
    while (this.entries.size > this.max || this.weight > this.maxWeight) this.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    const value = this.entries.get(key);
    if (value === undefined && !this.entries.has(key)) return;
    this.entries.delete(key);
    this.weight -= this.weigh(value as V);
    if (this.newest === key) this.newest = undefined;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
    this.newest = undefined;
  }
}
