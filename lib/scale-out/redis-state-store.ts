import { wholeOption } from '../errors';
import { entryBytes, StateError, type StateStore } from '../state';
import type { RedisClient, RedisOptions } from './redis-client';

/** Options of {@link RedisStateStore}. */
export interface RedisStateStoreOptions extends RedisOptions {
  /** Bytes (keys and JSON values) one owner may keep. Default 1 MiB. */
  maxBytesPerOwner?: number;
}

// One hash per owner: `v:<key>` its JSON, `e:<key>` its expiry (epoch ms). A set sweeps the owner's expired keys,
// counts the bytes of the others (key and JSON, as the memory store counts them), refuses what would pass the
// budget, and keeps the hash until its last key expires. KEYS: the owner's hash. ARGV: now, key, json, expiresAt, max.
const SET = `
local now = tonumber(ARGV[1])
local all = redis.call('HGETALL', KEYS[1])
local used = 0
local latest = tonumber(ARGV[4])
for i = 1, #all, 2 do
  local field = all[i]
  if string.sub(field, 1, 2) == 'e:' then
    local name = string.sub(field, 3)
    local expires = tonumber(all[i + 1])
    if expires <= now then
      redis.call('HDEL', KEYS[1], field, 'v:' .. name)
    elseif name ~= ARGV[2] then
      used = used + #name + redis.call('HSTRLEN', KEYS[1], 'v:' .. name)
      if expires > latest then latest = expires end
    end
  end
end
if used + #ARGV[2] + #ARGV[3] > tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], 'v:' .. ARGV[2], ARGV[3], 'e:' .. ARGV[2], ARGV[4])
redis.call('PEXPIREAT', KEYS[1], latest)
return 1`;

// Removes one key; 1 when it was there and live. KEYS: the owner's hash. ARGV: key, now.
const DELETE = `
local expires = redis.call('HGET', KEYS[1], 'e:' .. ARGV[1])
redis.call('HDEL', KEYS[1], 'v:' .. ARGV[1], 'e:' .. ARGV[1])
if expires and tonumber(expires) > tonumber(ARGV[2]) then return 1 end
return 0`;

/**
 * `ctx.state` in Redis (docs/state.md): what one instance set, every instance sharing the Redis reads.
 * Bounded per owner in bytes (checked atomically in Redis); the total is bounded by the Redis server's own
 * `maxmemory`. One hash per owner, so one Redis server or a Cluster (each owner's keys live in one slot).
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
    const [json, expires] = (await this.redis.call('HMGET', this.key(owner), `v:${key}`, `e:${key}`)) as [string | null, string | null];
    return json !== null && expires !== null && Number(expires) > Date.now() ? json : undefined;
  }

  async set(owner: string, key: string, json: string, ttlMs: number): Promise<void> {
    // Lua's # counts bytes; the budget is checked on the same measure the memory store uses.
    if (entryBytes(key, json) > this.maxBytesPerOwner) throw StateError.full(this.maxBytesPerOwner);
    const now = Date.now();
    const kept = await this.redis.call('EVAL', SET, 1, this.key(owner), now, key, json, now + ttlMs, this.maxBytesPerOwner);
    if (Number(kept) !== 1) throw StateError.full(this.maxBytesPerOwner);
  }

  async delete(owner: string, key: string): Promise<boolean> {
    return Number(await this.redis.call('EVAL', DELETE, 1, this.key(owner), key, Date.now())) === 1;
  }

  private key(owner: string): string {
    // The braces put every key of one owner in one Cluster slot.
    return `${this.prefix}state:{${owner}}`;
  }
}
