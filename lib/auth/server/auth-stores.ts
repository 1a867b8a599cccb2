import { LruMap } from '../../catalogue/lru-map';
import type { AuthStore } from '../../interfaces';

interface Entry {
  value: string;
  members?: Set<string>;
  /** ms since the epoch. */
  expiresAt: number;
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
  private readonly working: LruMap<string, Entry>;
  private readonly anonymous: LruMap<string, Entry>;

  constructor(options: MemoryAuthStoreOptions = {}) {
    const weigh = (entry: Entry) => 96 + entry.value.length * 2 + [...(entry.members ?? [])].reduce((n, m) => n + 48 + m.length * 2, 0);
    this.working = new LruMap(options.maxEntries ?? 100_000, weigh, options.maxBytes ?? 64 * 1024 * 1024);
    this.anonymous = new LruMap(options.maxEntries ?? 100_000, weigh, options.maxAnonymousBytes ?? 32 * 1024 * 1024);
  }

  private space(key: string): LruMap<string, Entry> {
    return isAnonymousKey(key) ? this.anonymous : this.working;
  }

  private live(key: string): Entry | undefined {
    const entries = this.space(key);
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.live(key);
    return entry?.members ? undefined : entry?.value;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.space(key).set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  }

  async delete(key: string): Promise<void> {
    this.space(key).delete(key);
  }

  async add(key: string, member: string, ttlSeconds: number): Promise<void> {
    const entry = this.live(key);
    const members = new Set(entry?.members ?? []);
    members.add(member);
    // Set again (not mutated in place): the map weighs an entry when it is set.
    this.space(key).set(key, { value: '', members, expiresAt: Math.max(entry?.expiresAt ?? 0, Date.now() + ttlSeconds * 1000) });
  }

  async members(key: string): Promise<readonly string[]> {
    return [...(this.live(key)?.members ?? [])];
  }

  async increment(key: string, amount: number, ttlSeconds: number): Promise<number> {
    const entry = this.live(key);
    const total = (Number(entry?.value) || 0) + amount;
    this.space(key).set(key, { value: String(total), expiresAt: entry?.expiresAt ?? Date.now() + ttlSeconds * 1000 });
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
