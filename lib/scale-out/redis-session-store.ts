import type { SessionRecord, SessionStore } from '../transports/http/session-store';
import type { RedisClient, RedisOptions } from './redis-client';

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions extends RedisOptions {
  /** Seconds a session is remembered after its last request. Default 1,800 (the idle timeout's default). */
  ttlSeconds?: number;
}

/**
 * Remembers 2025-era sessions in Redis, so that a session opened on one instance is served by any other
 * (after a restart, a crash, or without sticky routing): the instance that receives an unknown session id
 * finds it here and opens it again with the client's original `initialize`.
 */
export class RedisSessionStore implements SessionStore {
  private readonly prefix: string;
  private readonly ttl: number;

  constructor(
    private readonly redis: RedisClient,
    options: RedisSessionStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? 'mcp-reflect:';
    this.ttl = options.ttlSeconds ?? 1_800;
  }

  async save(id: string, record: SessionRecord): Promise<void> {
    await this.redis.call('SET', this.key(id), JSON.stringify(record), 'EX', this.ttl);
  }

  async load(id: string): Promise<SessionRecord | undefined> {
    const value = (await this.redis.call('GET', this.key(id))) as string | null;
    return value ? (JSON.parse(value) as SessionRecord) : undefined;
  }

  async touch(id: string): Promise<void> {
    await this.redis.call('EXPIRE', this.key(id), this.ttl);
  }

  async delete(id: string): Promise<void> {
    await this.redis.call('DEL', this.key(id));
  }

  private key(id: string): string {
    return `${this.prefix}session:${id}`;
  }
}
