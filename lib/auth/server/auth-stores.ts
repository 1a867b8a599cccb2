import { LRUCache } from 'lru-cache';
import type { AuthStore } from '../../interfaces';

interface Entry {
  value: string;
  members?: Set<string>;
}

/** Options of `MemoryAuthStore`. */
export interface MemoryAuthStoreOptions {
  /** Most entries kept; the least recently used goes first. Default 100,000. */
  maxEntries?: number;
  /** Most bytes kept (keys and values) of signed-in users' state. Default 64 MiB. */
  maxBytes?: number;
  /**
   * Most bytes kept of anonymous state (registrations never used for a grant, authorization requests in
   * progress, the bounds' counters), apart from the rest: it can never evict a signed-in user's. Default 32 MiB.
   */
  maxAnonymousBytes?: number;
}

/** Keys of anonymous state (./oidc-adapter.ts, ./anonymous-admission.ts): kept apart from signed-in users' state. */
export function isAnonymousKey(key: string): boolean {
  return key.startsWith('anon:') || key.startsWith('limit:');
}

/**
 * The authorization server's store in this process (the default): bounded in entries and bytes, every entry
 * forgotten at the end of its lifetime. Anonymous state has a space (and a bound) of its own, so a flood of
 * registrations evicts only anonymous state, never a signed-in user's. One instance only: use `RedisAuthStore`
 * for several.
 */
export class MemoryAuthStore implements AuthStore {
  private readonly working: LRUCache<string, Entry>;
  private readonly anonymous: LRUCache<string, Entry>;

  constructor(options: MemoryAuthStoreOptions = {}) {
    // The key counts too: a client chooses some of them (a registration's id).
    const sizeCalculation = (entry: Entry, key: string) => 96 + key.length * 2 + entry.value.length * 2 + [...(entry.members ?? [])].reduce((n, m) => n + 48 + m.length * 2, 0);
    const max = options.maxEntries ?? 100_000;
    this.working = new LRUCache({ max, maxSize: options.maxBytes ?? 64 * 1024 * 1024, sizeCalculation });
    this.anonymous = new LRUCache({ max, maxSize: options.maxAnonymousBytes ?? 32 * 1024 * 1024, sizeCalculation });
  }

  private space(key: string): LRUCache<string, Entry> {
    return isAnonymousKey(key) ? this.anonymous : this.working;
  }

  /** Keeps `entry` for `ms` (an entry whose lifetime is over is not kept: the cache's 0 would mean for ever). */
  private keep(key: string, entry: Entry, ms: number): void {
    if (ms >= 1) this.space(key).set(key, entry, { ttl: Math.ceil(ms) });
    else this.space(key).delete(key);
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.space(key).get(key);
    return entry?.members ? undefined : entry?.value;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.keep(key, { value }, ttlSeconds * 1000);
  }

  async delete(key: string): Promise<void> {
    this.space(key).delete(key);
  }

  async add(key: string, member: string, ttlSeconds: number): Promise<void> {
    const space = this.space(key);
    const entry = space.get(key);
    const members = new Set(entry?.members ?? []);
    members.add(member);
    // Set again (not mutated in place): the cache weighs an entry when it is set. A shorter lifetime never shortens the set.
    this.keep(key, { value: '', members }, Math.max(entry ? space.getRemainingTTL(key) : 0, ttlSeconds * 1000));
  }

  async members(key: string): Promise<readonly string[]> {
    return [...(this.space(key).get(key)?.members ?? [])];
  }

  async increment(key: string, amount: number, ttlSeconds: number): Promise<number> {
    const space = this.space(key);
    const entry = space.get(key);
    const total = (Number(entry?.value) || 0) + amount;
    // A counter keeps the lifetime it was made with.
    this.keep(key, { value: String(total) }, entry ? space.getRemainingTTL(key) : ttlSeconds * 1000);
    return total;
  }
}

/** A Redis connection as `RedisAuthStore` uses it: an ioredis client (`new Redis(url)`), or anything with `call`. */
export interface RedisAuthClient {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

/**
 * The authorization server's store on Redis: every instance in front of the same Redis (and with the same
 * `keys`) shares clients, grants, codes, refresh tokens, sessions and the encrypted upstream tokens.
 * @example
 * new RedisAuthStore(new Redis(process.env.REDIS_URL), { prefix: 'notes:' })
 */
export class RedisAuthStore implements AuthStore {
  private readonly prefix: string;

  constructor(
    private readonly client: RedisAuthClient,
    options: { prefix?: string } = {},
  ) {
    this.prefix = `${options.prefix ?? 'mcp-reflect:'}auth:`;
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.client.call('GET', this.prefix + key);
    return value === null || value === undefined ? undefined : String(value);
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.client.call('SET', this.prefix + key, value, 'EX', Math.max(1, Math.ceil(ttlSeconds)));
  }

  async delete(key: string): Promise<void> {
    await this.client.call('DEL', this.prefix + key);
  }

  async add(key: string, member: string, ttlSeconds: number): Promise<void> {
    const full = this.prefix + key;
    await this.client.call('SADD', full, member);
    // GT: a shorter lifetime never shortens the set (Redis ≥ 7); the set then lives as long as its longest member.
    await this.client.call('EXPIRE', full, Math.max(1, Math.ceil(ttlSeconds)), 'GT').catch(() => undefined);
    await this.client.call('EXPIRE', full, Math.max(1, Math.ceil(ttlSeconds)), 'NX');
  }

  async members(key: string): Promise<readonly string[]> {
    const members = await this.client.call('SMEMBERS', this.prefix + key);
    return Array.isArray(members) ? members.map(String) : [];
  }

  async increment(key: string, amount: number, ttlSeconds: number): Promise<number> {
    const total = Number(await this.client.call('EVAL', INCREMENT, 1, this.prefix + key, amount, Math.max(1, Math.ceil(ttlSeconds))));
    return total;
  }
}

/** INCRBY, with the lifetime set when the counter is made (one round trip, atomic). */
const INCREMENT = "local n = redis.call('INCRBY', KEYS[1], ARGV[1]) if n == tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end return n";
