import { randomUUID } from 'node:crypto';
import { answeredRecord, changedRecord, eventOf, newRecord, overBudget, pageOf, serialise, TaskLimitError, wholeOption } from '../../tasks';
import type { NewTask, TaskChange, TaskEvent, TaskPage, TaskRecord, TaskStatus, TaskStore, TaskStoreOptions } from '../../tasks';
import type { RedisClient, RedisOptions, RedisSubscriber } from './redis-client';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions extends RedisOptions, Omit<TaskStoreOptions, 'maxBytes'> {
  /** Bytes one task may take (result, error, input as JSON); a bigger result fails the task. Default 1 MiB. */
  maxTaskBytes?: number;
}

// Creates a task if its owner and the store have room (expired ids are dropped first). KEYS: owner set, all
// set, task hash. ARGV: now, expiresAt, maxPerOwner, maxTotal, taskId, json.
const CREATE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return -1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return -2 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[5])
local last = tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
redis.call('PEXPIREAT', KEYS[1], last)
redis.call('HSET', KEYS[3], 'v', '0', 'json', ARGV[6])
redis.call('PEXPIREAT', KEYS[3], ARGV[2])
return 1`;

// Compare-and-set: writes the new JSON only if nobody changed the task since it was read. KEYS: task hash.
// ARGV: version read, json.
const SWAP = `
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(ARGV[1]) + 1), 'json', ARGV[2])
return 1`;

/**
 * Tasks in Redis, shared by every instance of a server: a task created on one instance is read, answered and
 * cancelled on any other, and a cancellation or an answer reaches the instance running the task over pub/sub.
 * Bounded per owner and in all (entries), per task (bytes); each task expires with its TTL. One Redis server
 * (or a primary), not Redis Cluster. mcp-reflect never imports a Redis client: pass an ioredis instance.
 *
 * @example
 * const redis = new Redis(process.env.REDIS_URL);
 * McpModule.forRoot({ name: 'jobs', version: '1.0.0', tasks: { store: new RedisTaskStore(redis) } });
 */
export class RedisTaskStore implements TaskStore {
  private readonly prefix: string;
  private readonly maxTasksPerOwner: number;
  private readonly maxTasks: number;
  private readonly maxTaskBytes: number;
  private readonly now: () => number;
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  /** Events this instance published come back from Redis: they are recognised and skipped. */
  private readonly origin = randomUUID();
  private subscriber?: RedisSubscriber;
  private subscribed?: Promise<unknown>;

  constructor(
    private readonly redis: RedisClient,
    options: RedisTaskStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? 'mcp-reflect:';
    const bound = (name: 'maxTasksPerOwner' | 'maxTasks' | 'maxTaskBytes', fallback: number, unit: string) =>
      wholeOption((value) => `new RedisTaskStore(redis, { ${name}: ${value} })`, options[name], fallback, unit);
    this.maxTasksPerOwner = bound('maxTasksPerOwner', 100, 'tasks');
    this.maxTasks = bound('maxTasks', 10_000, 'tasks');
    this.maxTaskBytes = bound('maxTaskBytes', 1024 * 1024, 'bytes');
    this.now = options.now ?? Date.now;
  }

  async create(task: NewTask): Promise<TaskRecord> {
    const record = newRecord(task, this.now());
    const json = serialise(record);
    if (Buffer.byteLength(json) > this.maxTaskBytes) throw TaskLimitError.bytes(this.maxTaskBytes);
    const keys = [this.ownerKey(task.owner), `${this.prefix}tasks`, this.taskKey(task.taskId)];
    const args = [this.now(), record.expiresAt, this.maxTasksPerOwner, this.maxTasks, task.taskId, json];
    const created = Number(await this.redis.call('EVAL', CREATE, keys.length, ...keys, ...args));
    if (created === -1) throw TaskLimitError.perOwner(this.maxTasksPerOwner);
    if (created === -2) throw TaskLimitError.total(this.maxTasks);
    return record;
  }

  async get(owner: string, taskId: string): Promise<TaskRecord | undefined> {
    return (await this.read(owner, taskId))?.record;
  }

  async update(owner: string, taskId: string, change: TaskChange, from: readonly TaskStatus[]): Promise<TaskRecord | undefined> {
    for (;;) {
      const current = await this.read(owner, taskId);
      const record = current && changedRecord(current.record, change, from, this.now());
      if (!current || !record) return undefined;
      let json = serialise(record);
      const stored = Buffer.byteLength(json) > this.maxTaskBytes ? overBudget(record, TaskLimitError.bytes(this.maxTaskBytes)) : record;
      if (stored !== record) json = serialise(stored);
      if (!(await this.swap(taskId, current.version, json))) continue; // changed meanwhile: read again
      const event = eventOf(stored);
      if (event) await this.publish(event);
      return stored;
    }
  }

  async answer(owner: string, taskId: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined> {
    for (;;) {
      const current = await this.read(owner, taskId);
      if (!current) return undefined;
      const answered = answeredRecord(current.record, responses, this.now());
      if (!answered) return current.record;
      const json = serialise(answered.record);
      if (Buffer.byteLength(json) > this.maxTaskBytes) throw TaskLimitError.bytes(this.maxTaskBytes);
      if (!(await this.swap(taskId, current.version, json))) continue;
      if (answered.done) await this.publish({ kind: 'answered', taskId });
      return answered.record;
    }
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const ids = (await this.redis.call('ZRANGEBYSCORE', this.ownerKey(owner), `(${this.now()}`, '+inf')) as string[];
    return pageOf(ids, cursor, limit, (id) => this.get(owner, id));
  }

  watch(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    void this.subscription().catch(() => undefined); // ready() reports the failure; the next call tries again
    return () => this.listeners.delete(listener);
  }

  /** Resolves once this instance receives the events of the others (a spec awaits it before it relies on them). */
  async ready(): Promise<void> {
    await this.subscription();
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.subscriber?.quit().catch(() => undefined);
  }

  /** Subscribes once; a subscription that failed (Redis unreachable) is tried again by the next caller. */
  private subscription(): Promise<unknown> {
    return (this.subscribed ??= this.subscribe().catch((error: unknown) => {
      this.subscribed = undefined;
      void this.subscriber?.quit().catch(() => undefined);
      throw error;
    }));
  }

  private async subscribe(): Promise<void> {
    const subscriber = (this.subscriber = this.redis.duplicate());
    subscriber.on('message', (channel, raw) => {
      if (channel !== this.channel) return;
      let event: Partial<TaskEvent> & { origin?: string };
      try {
        event = JSON.parse(raw) as typeof event;
      } catch {
        return; // not ours
      }
      if (event.origin === this.origin || typeof event.taskId !== 'string') return;
      if (event.kind === 'cancelled' || event.kind === 'answered' || event.kind === 'settled') this.emit({ kind: event.kind, taskId: event.taskId });
    });
    await subscriber.subscribe(this.channel);
  }

  private async publish(event: TaskEvent): Promise<void> {
    this.emit(event);
    await this.redis.call('PUBLISH', this.channel, JSON.stringify({ origin: this.origin, ...event }));
  }

  private emit(event: TaskEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private async read(owner: string, taskId: string): Promise<{ record: TaskRecord; version: string } | undefined> {
    const [version, json] = (await this.redis.call('HMGET', this.taskKey(taskId), 'v', 'json')) as [string | null, string | null];
    if (version === null || json === null) return undefined;
    const record = JSON.parse(json) as TaskRecord;
    if (record.owner !== owner || record.expiresAt <= this.now()) return undefined;
    return { record, version };
  }

  private async swap(taskId: string, version: string, json: string): Promise<boolean> {
    return Number(await this.redis.call('EVAL', SWAP, 1, this.taskKey(taskId), version, json)) === 1;
  }

  private get channel(): string {
    return `${this.prefix}task-events`;
  }

  private taskKey(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  private ownerKey(owner: string): string {
    return `${this.prefix}tasks-of:${owner}`;
  }
}
