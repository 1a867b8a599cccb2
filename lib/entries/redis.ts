// `mcp-reflect/redis`: serving across instances on Redis (docs/http.md#scaling-out-on-redis, docs/tasks.md,
// docs/state.md), the one home of every Redis store. mcp-reflect never imports a Redis client: pass an ioredis
// instance.
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
