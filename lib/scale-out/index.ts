export { RedisEventStore } from './redis-event-store';
export type { RedisEventStoreOptions } from './redis-event-store';
export { RedisSessionStore } from './redis-session-store';
export type { RedisSessionStoreOptions } from './redis-session-store';
export { RedisBus } from './redis-bus';
export type { RedisClient, RedisSubscriber, RedisOptions } from './redis-client';
export { RedisTaskStore } from './redis-task-store';
export type { RedisTaskStoreOptions } from './redis-task-store';
