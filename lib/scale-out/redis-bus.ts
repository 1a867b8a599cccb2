import { randomUUID } from 'node:crypto';
import type { ChangeBus, ChangeMessage } from '../server/change-bus';
import type { RedisClient, RedisOptions, RedisSubscriber } from './redis-client';

/**
 * Carries change notifications between instances over Redis pub/sub: a `list_changed` or
 * `resources/updated` on one instance reaches the sessions and `subscriptions/listen` streams of every
 * instance. Pass it to `app.useBus()`.
 *
 * @example
 * app.useBus(new RedisBus(redis));
 */
export class RedisBus implements ChangeBus {
  private readonly channel: string;
  /** Messages this instance sent come back from Redis: they are recognised and skipped. */
  private readonly origin = randomUUID();
  private subscriber?: RedisSubscriber;

  constructor(
    private readonly redis: RedisClient,
    options: RedisOptions = {},
  ) {
    this.channel = `${options.prefix ?? 'mcp-reflect:'}changes`;
  }

  async publish(message: ChangeMessage): Promise<void> {
    await this.redis.call('PUBLISH', this.channel, JSON.stringify({ origin: this.origin, ...message }));
  }

  async subscribe(deliver: (message: ChangeMessage) => void): Promise<void> {
    const subscriber = (this.subscriber = this.redis.duplicate());
    subscriber.on('message', (channel, raw) => {
      if (channel !== this.channel) return;
      let parsed: { origin?: string } & Partial<ChangeMessage>;
      try {
        parsed = JSON.parse(raw) as typeof parsed;
      } catch {
        return; // not ours
      }
      if (parsed.origin === this.origin) return;
      if (parsed.kind === 'tools' || parsed.kind === 'prompts' || parsed.kind === 'resources') deliver({ kind: parsed.kind });
      else if (parsed.kind === 'updated' && typeof parsed.uri === 'string') deliver({ kind: 'updated', uri: parsed.uri });
    });
    await subscriber.subscribe(this.channel);
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }
}
