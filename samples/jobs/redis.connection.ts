import Redis from 'ioredis';
import { Injectable, Module, type OnApplicationShutdown } from 'mcp-reflect';

/**
 * The one Redis connection of the application when REDIS_URL is set (none otherwise): the task store and the
 * state store share it, and it is closed with the application.
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly url = process.env.REDIS_URL ? new URL(process.env.REDIS_URL) : undefined;
  readonly client = this.url && new Redis(this.url.href, { maxRetriesPerRequest: 1 });

  /** Where BullMQ connects (its workers need `maxRetriesPerRequest: null`, so they have their own connections). */
  get queueConnection(): object | undefined {
    return this.url && { host: this.url.hostname, port: Number(this.url.port || 6379), maxRetriesPerRequest: null };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client?.quit();
  }
}

@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
