/**
 * The part of a Redis client mcp-reflect uses, as ioredis (v5, v6) provides it: `call()` for commands, and a
 * duplicate connection for pub/sub. mcp-reflect never imports a Redis client itself: you create one (and
 * own its connection options, TLS, reconnection) and pass it in.
 */
export interface RedisClient {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
  duplicate(): RedisSubscriber;
}

/** A connection in subscriber mode (`client.duplicate()`). */
export interface RedisSubscriber {
  subscribe(...channels: string[]): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  quit(): Promise<unknown>;
}

/** Options shared by the Redis pieces. */
export interface RedisOptions {
  /** Prefix of every key and channel, so several servers can share one Redis. Default 'mcp-reflect:'. */
  prefix?: string;
}
