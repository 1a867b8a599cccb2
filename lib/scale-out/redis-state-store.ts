import { wholeOption } from '../errors';
import { entryBytes, StateError, type StateStore } from '../state';
import type { RedisClient, RedisOptions } from './redis-client';

/** Options of {@link RedisStateStore}. */
export interface RedisStateStoreOptions extends RedisOptions {
  /** Bytes one owner may keep: each value's key and JSON, plus {@link REDIS_ENTRY_OVERHEAD} per value. Default 1 MiB. */
  maxBytesPerOwner?: number;
}

/**
 * What Redis holds for one value beside its key and JSON, as `MEMORY USAGE` reports it for an owner of many
 * values (a hash field and a sorted-set member, each with their dictionary entries and allocator slack): counted
 * against `maxBytesPerOwner`, so that 10,000 one-byte values count what they cost (1.5 MiB), not 20 KB.
 */
export const REDIS_ENTRY_OVERHEAD = 150;

// One hash per owner (`v:<key>` its JSON, `#` the bytes the owner holds) and one sorted set of its keys by expiry
// (epoch ms), in one Cluster slot. Every script is O(log n) in the owner's keys: the byte count is kept up to date
// as values come and go (a replaced value's size is read with HSTRLEN), never summed over the hash; expired values
// are swept a few at a time, from the sorted set (each once), and all of them only before a set would be refused.
// SET — KEYS: hash, expiries. ARGV: now, key, json, expiresAt, max, overhead.
const SET = `
local now, overhead, max = tonumber(ARGV[1]), tonumber(ARGV[6]), tonumber(ARGV[5])
local used = tonumber(redis.call('HGET', KEYS[1], '#') or '0')
local function sizeOf(name)
  return #name + redis.call('HSTRLEN', KEYS[1], 'v:' .. name) + overhead
end
local function sweep(limit)
  local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, limit)
  for _, name in ipairs(expired) do
    used = used - sizeOf(name)
    redis.call('HDEL', KEYS[1], 'v:' .. name)
    redis.call('ZREM', KEYS[2], name)
  end
  return #expired
end
local function replaced()
  if redis.call('ZSCORE', KEYS[2], ARGV[2]) then return sizeOf(ARGV[2]) end
  return 0
end
sweep(8)
local adding = #ARGV[2] + #ARGV[3] + overhead
if used - replaced() + adding > max then
  while sweep(256) == 256 do end
  if used - replaced() + adding > max then
    if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('DEL', KEYS[1]) else redis.call('HSET', KEYS[1], '#', used) end
    return 0
  end
end
used = used - replaced() + adding
redis.call('HSET', KEYS[1], 'v:' .. ARGV[2], ARGV[3], '#', used)
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
local latest = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')[2]
redis.call('PEXPIREAT', KEYS[1], latest)
redis.call('PEXPIREAT', KEYS[2], latest)
return 1`;

// GET — KEYS: hash, expiries. ARGV: key, now. The JSON of a live key, else nil.
const GET = `
local expires = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not expires or tonumber(expires) <= tonumber(ARGV[2]) then return false end
return redis.call('HGET', KEYS[1], 'v:' .. ARGV[1])`;

// DELETE — KEYS: hash, expiries. ARGV: key, now, overhead. 1 when it was there and live.
const DELETE = `
local expires = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not expires then return 0 end
local size = #ARGV[1] + redis.call('HSTRLEN', KEYS[1], 'v:' .. ARGV[1]) + tonumber(ARGV[3])
redis.call('HDEL', KEYS[1], 'v:' .. ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('DEL', KEYS[1], KEYS[2]) else redis.call('HINCRBY', KEYS[1], '#', -size) end
if tonumber(expires) > tonumber(ARGV[2]) then return 1 end
return 0`;

/**
 * `ctx.state` in Redis (docs/state.md): what one instance set, every instance sharing the Redis reads.
 * Bounded per owner in bytes, counted as Redis holds them (checked atomically in Redis, in time that does not grow
 * with the owner's keys); the total is bounded by the Redis server's own `maxmemory`. One hash and one sorted set
 * per owner, so one Redis server or a Cluster (each owner's keys live in one slot).
 *
 * @example
 * import Redis from 'ioredis';
 * McpModule.forRoot({ name: 'shop', version: '1.0.0', state: { store: new RedisStateStore(new Redis(process.env.REDIS_URL)) } })
 */
export class RedisStateStore implements StateStore {
  private readonly prefix: string;
  private readonly maxBytesPerOwner: number;

  constructor(
    private readonly redis: RedisClient,
    options: RedisStateStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? 'mcp-reflect:';
    this.maxBytesPerOwner = wholeOption((value) => `new RedisStateStore(redis, { maxBytesPerOwner: ${value} })`, options.maxBytesPerOwner, 1024 * 1024, 'bytes');
  }

  async get(owner: string, key: string): Promise<string | undefined> {
    const json = await this.redis.call('EVAL', GET, 2, ...this.keys(owner), key, Date.now());
    return typeof json === 'string' ? json : undefined;
  }

  async set(owner: string, key: string, json: string, ttlMs: number): Promise<void> {
    // Lua's # counts bytes; the budget is checked on the same measure, with what Redis adds per value.
    if (entryBytes(key, json) + REDIS_ENTRY_OVERHEAD > this.maxBytesPerOwner) throw StateError.full(this.maxBytesPerOwner);
    const now = Date.now();
    const kept = await this.redis.call('EVAL', SET, 2, ...this.keys(owner), now, key, json, now + ttlMs, this.maxBytesPerOwner, REDIS_ENTRY_OVERHEAD);
    if (Number(kept) !== 1) throw StateError.full(this.maxBytesPerOwner);
  }

  async delete(owner: string, key: string): Promise<boolean> {
    return Number(await this.redis.call('EVAL', DELETE, 2, ...this.keys(owner), key, Date.now(), REDIS_ENTRY_OVERHEAD)) === 1;
  }

  private keys(owner: string): [string, string] {
    // The braces put every key of one owner in one Cluster slot.
    const hash = `${this.prefix}state:{${owner}}`;
    return [hash, `${hash}:expiries`];
  }
}
