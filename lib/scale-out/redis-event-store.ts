import { randomBytes } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { EventStore } from '../transports/http/event-store';
import type { RedisClient, RedisOptions } from './redis-client';

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions extends RedisOptions {
  /** Bytes of events kept per session; the oldest go first, a larger single event is not kept. Default 8 MiB. */
  maxSessionBytes?: number;
  /** Seconds a session's events live after its last event (Redis expiry). Default 3,600. */
  ttlSeconds?: number;
}

/**
 * An EventStore in Redis: a client that reconnects with `Last-Event-ID` to another instance gets the events
 * it missed. Events are kept per session (a list of ids, and one key per event), bounded in bytes per session
 * and expiring after `ttlSeconds`; the total is bounded by the Redis server's `maxmemory`.
 *
 * @example
 * const redis = new Redis(process.env.REDIS_URL);
 * await app.listen({ transport: 'http', eventStore: new RedisEventStore(redis) });
 */
export class RedisEventStore implements EventStore {
  private readonly prefix: string;
  private readonly maxSessionBytes: number;
  private readonly ttl: number;

  constructor(
    private readonly redis: RedisClient,
    options: RedisEventStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? 'mcp-reflect:';
    this.maxSessionBytes = options.maxSessionBytes ?? 8 * 1024 * 1024;
    this.ttl = options.ttlSeconds ?? 3_600;
  }

  async storeEvent(sessionId: string, streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${randomBytes(16).toString('hex')}`;
    const json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json);
    if (bytes > this.maxSessionBytes) return id; // never kept, as in memory
    const list = this.list(sessionId);
    // One round trip: the event, its place in the session's list, the session's byte count, their expiry;
    // then the oldest events go while the session is over its budget.
    await this.redis.call(
        'EVAL',
        STORE,
        2,
        this.event(id),
        list,
        JSON.stringify({ session: sessionId, stream: streamId, json }),
        id,
        bytes,
        this.ttl,
        this.maxSessionBytes,
        this.prefix,
    );
    return id;
  }

  async streamOf(sessionId: string, eventId: string): Promise<string | undefined> {
    const event = await this.read(eventId);
    return event?.session === sessionId ? event.stream : undefined;
  }

  async replayAfter(
    sessionId: string,
    eventId: string,
    send: (eventId: string, message: JSONRPCMessage) => Promise<void>,
  ): Promise<string | undefined> {
    const last = await this.read(eventId);
    if (last?.session !== sessionId) return undefined;
    const ids = ((await this.redis.call('LRANGE', this.list(sessionId), 0, -1)) as string[]).map(String);
    const later = ids.slice(ids.indexOf(eventId) + 1);
    if (later.length === 0) return last.stream;
    const values = (await this.redis.call('MGET', ...later.map((id) => this.event(id)))) as (string | null)[];
    for (let i = 0; i < later.length; i++) {
      const value = values[i];
      if (!value) continue;
      const event = JSON.parse(value) as StoredEvent;
      if (event.stream === last.stream) await send(later[i], JSON.parse(event.json) as JSONRPCMessage);
    }
    return last.stream;
  }

  async dropSession(sessionId: string): Promise<void> {
    await this.redis.call('EVAL', DROP, 1, this.list(sessionId), this.prefix);
  }

  private async read(eventId: string): Promise<StoredEvent | undefined> {
    const value = (await this.redis.call('GET', this.event(eventId))) as string | null;
    return value ? (JSON.parse(value) as StoredEvent) : undefined;
  }

  private event(id: string): string {
    return `${this.prefix}event:${id}`;
  }

  private list(sessionId: string): string {
    return `${this.prefix}session-events:${sessionId}`;
  }
}

interface StoredEvent {
  readonly session: string;
  readonly stream: string;
  readonly json: string;
}

// KEYS[1] event key, KEYS[2] session list; ARGV: value, id, bytes, ttl, max session bytes, prefix.
// The list holds "bytes:id" entries so the oldest can be dropped without reading the events.
const STORE = `
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[4])
redis.call('RPUSH', KEYS[2], ARGV[2])
local bytesKey = KEYS[2] .. ':bytes'
local total = redis.call('INCRBY', bytesKey, ARGV[3])
redis.call('HSET', KEYS[2] .. ':sizes', ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('EXPIRE', bytesKey, ARGV[4])
redis.call('EXPIRE', KEYS[2] .. ':sizes', ARGV[4])
while total > tonumber(ARGV[5]) do
  local oldest = redis.call('LPOP', KEYS[2])
  if not oldest then break end
  local size = tonumber(redis.call('HGET', KEYS[2] .. ':sizes', oldest) or '0')
  redis.call('HDEL', KEYS[2] .. ':sizes', oldest)
  redis.call('DEL', ARGV[6] .. 'event:' .. oldest)
  total = redis.call('DECRBY', bytesKey, size)
end
return total
`;

// KEYS[1] session list; ARGV[1] prefix.
const DROP = `
local ids = redis.call('LRANGE', KEYS[1], 0, -1)
for _, id in ipairs(ids) do redis.call('DEL', ARGV[1] .. 'event:' .. id) end
redis.call('DEL', KEYS[1], KEYS[1] .. ':bytes', KEYS[1] .. ':sizes')
return #ids
`;
