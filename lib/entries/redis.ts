// `mcp-reflect/redis`: serving across instances on Redis (docs/http.md#scaling-out-on-redis, docs/tasks.md). The
// same classes as the main entry exports (one build, so `instanceof` holds whichever entry a class came from);
// mcp-reflect never imports a Redis client: pass an ioredis instance.
export { RedisBus, RedisEventStore, RedisSessionStore, RedisStateStore, RedisTaskQueue, RedisTaskStore } from '../scale-out';
export type {
  RedisClient,
  RedisEventStoreOptions,
  RedisOptions,
  RedisSessionStoreOptions,
  RedisStateStoreOptions,
  RedisSubscriber,
  RedisTaskQueueOptions,
  RedisTaskStoreOptions,
} from '../scale-out';
