/**
 * A Map bounded to `max` entries that forgets the least recently used one first: every `get` that finds an
 * entry and every `set` makes it the newest (a Map iterates in insertion order, so the oldest is the first).
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
