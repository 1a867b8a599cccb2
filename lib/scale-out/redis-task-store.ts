import { randomUUID } from 'node:crypto';
import { answeredRecord, changedRecord, eventOf, newRecord, overBudget, pageOf, refuseRenamedOptions, serialise, TaskLimitError } from '../tasks';
import { wholeOption } from '../errors';
import type { NewTask, TaskChange, TaskEvent, TaskPage, TaskRecord, TaskStatus, TaskStore, TaskStoreOptions } from '../tasks';
import type { RedisClient, RedisOptions, RedisSubscriber } from './redis-client';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions extends RedisOptions, Omit<TaskStoreOptions, 'maxBytes' | 'maxBytesPerClient'> {
  /** Bytes one task may take (result, error, input as JSON); a bigger result fails the task. Default 1 MiB. */
  maxTaskBytes?: number;
}

// Removes one task everywhere: its hash and its place in the sets of its owner, its client, the store and the
// cancelled ones. Its owner and client are read from its hash (hence one Redis server, not Cluster). ARGV[1] is
// the key prefix.
const DROP = `
local function drop(id)
  local task = ARGV[1] .. 'task:' .. id
  local held = redis.call('HMGET', task, 'o', 'c')
  redis.call('DEL', task)
  if held[1] then redis.call('ZREM', ARGV[1] .. 'tasks-of:' .. held[1], id) end
  if held[2] then
    redis.call('ZREM', ARGV[1] .. 'tasks-by:' .. held[2], id)
    redis.call('ZREM', ARGV[1] .. 'cancelled-by:' .. held[2], id)
  end
  redis.call('ZREM', ARGV[1] .. 'tasks', id)
  redis.call('ZREM', ARGV[1] .. 'cancelled', id)
end
`;

// Keeps a sorted set until its last member expires.
const KEEP = `
local function keep(key)
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2]
  if last then redis.call('PEXPIREAT', key, last) end
end
`;

// Creates a task if its client and the store have room (expired ids are dropped first; where a bound is
// reached, the cancelled task of that bound nearest its expiry gives its place). Every set is scored by expiry.
// KEYS: all set, owner set, client set, task hash, the client's cancelled set, the store's cancelled set.
// ARGV: prefix, now, expiresAt, maxPerClient, maxTotal, taskId, json, owner, client.
const CREATE = `${DROP}${KEEP}
for _, i in ipairs({ 1, 2, 3, 5, 6 }) do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[2]) end
local function room(held, cancelled, max)
  if redis.call('ZCARD', held) < max then return true end
  local victim = redis.call('ZRANGE', cancelled, 0, 0)[1]
  if not victim then return false end
  drop(victim)
  redis.call('ZREM', held, victim)
  redis.call('ZREM', cancelled, victim)
  return true
end
if not room(KEYS[3], KEYS[5], tonumber(ARGV[4])) then return -1 end
if not room(KEYS[1], KEYS[6], tonumber(ARGV[5])) then return -2 end
for i = 1, 3 do redis.call('ZADD', KEYS[i], ARGV[3], ARGV[6]) end
keep(KEYS[2])
keep(KEYS[3])
redis.call('HSET', KEYS[4], 'v', '0', 'json', ARGV[7], 'o', ARGV[8], 'c', ARGV[9])
redis.call('PEXPIREAT', KEYS[4], ARGV[3])
return 1`;

// Drops up to ARGV[2] live tasks of one owner (the oldest), and returns their ids. KEYS: owner set.
// ARGV: prefix, batch, now.
const DROP_OWNER = `${DROP}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
local ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
for _, id in ipairs(ids) do
  drop(id)
  redis.call('ZREM', KEYS[1], id)
end
return ids`;

/** Tasks one DROP_OWNER script removes at most: a script holds Redis while it runs. */
const DROP_BATCH = 500;

// Compare-and-set: writes the new JSON only if nobody changed the task since it was read; a task now cancelled
// joins the cancelled sets (of its client, of the store), whose members give their places to new tasks.
// KEYS: task hash[, the client's cancelled set, the store's cancelled set]. ARGV: version read, json[, expiresAt, taskId].
const SWAP = `${KEEP}
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(ARGV[1]) + 1), 'json', ARGV[2])
if KEYS[2] then
  for i = 2, 3 do
    redis.call('ZADD', KEYS[i], ARGV[3], ARGV[4])
    keep(KEYS[i])
  end
end
return 1`;

/**
 * Tasks in Redis, shared by every instance of a server: a task created on one instance is read, answered and
 * cancelled on any other, and a cancellation or an answer reaches the instance running the task over pub/sub.
 * Bounded per client and in all (entries; a cancelled task gives its place to a new one), per task (bytes);
 * each task expires with its TTL. One Redis server
 * (or a primary), not Redis Cluster. mcp-reflect never imports a Redis client: pass an ioredis instance.
 *
 * @example
 * const redis = new Redis(process.env.REDIS_URL);
 * McpModule.forRoot({ name: 'jobs', version: '1.0.0', tasks: { store: new RedisTaskStore(redis) } });
 */
export class RedisTaskStore implements TaskStore {
  private readonly prefix: string;
  private readonly maxTasksPerClient: number;
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
    refuseRenamedOptions((option) => `new RedisTaskStore(redis, { ${option} })`, options);
    this.prefix = options.prefix ?? 'mcp-reflect:';
    const bound = (name: 'maxTasksPerClient' | 'maxTasks' | 'maxTaskBytes', fallback: number, unit: string) =>
      wholeOption((value) => `new RedisTaskStore(redis, { ${name}: ${value} })`, options[name], fallback, unit);
    this.maxTasksPerClient = bound('maxTasksPerClient', 100, 'tasks');
    this.maxTasks = bound('maxTasks', 10_000, 'tasks');
    this.maxTaskBytes = bound('maxTaskBytes', 1024 * 1024, 'bytes');
    this.now = options.now ?? Date.now;
  }

  async create(task: NewTask): Promise<TaskRecord> {
    const record = newRecord(task, this.now());
    const json = serialise(record);
    if (Buffer.byteLength(json) > this.maxTaskBytes) throw TaskLimitError.bytes(this.maxTaskBytes);
    const client = task.client ?? task.owner;
    const keys = [this.allKey, this.ownerKey(task.owner), this.clientKey(client), this.taskKey(task.taskId), this.cancelledKey(client), this.allCancelledKey];
    const args = [this.prefix, this.now(), record.expiresAt, this.maxTasksPerClient, this.maxTasks, task.taskId, json, task.owner, client];
    const created = Number(await this.redis.call('EVAL', CREATE, keys.length, ...keys, ...args));
    if (created === -1) throw TaskLimitError.perClient(this.maxTasksPerClient);
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
      const cancelled = stored.status === 'cancelled' ? current.client : undefined;
      if (!(await this.swap(taskId, current.version, json, cancelled, stored.expiresAt))) continue; // changed meanwhile: read again
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

  async dropOwner(owner: string): Promise<number> {
    let dropped = 0;
    // In batches, each one atomic: no script holds Redis for long, however many tasks the owner has.
    for (;;) {
      const ids = (await this.redis.call('EVAL', DROP_OWNER, 1, this.ownerKey(owner), this.prefix, DROP_BATCH, this.now())) as string[];
      for (const taskId of ids) await this.publish({ kind: 'cancelled', taskId });
      dropped += ids.length;
      if (ids.length < DROP_BATCH) return dropped;
    }
  }

  watch(listener: (event: TaskEvent) => void): () => Promise<void> {
    this.listeners.add(listener);
    void this.subscription().catch(() => undefined); // ready() reports the failure; the next call tries again
    return async () => {
      // A store nobody listens to holds no subscriber connection (an application that closed leaves none open).
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      const subscriber = this.subscriber;
      this.subscriber = undefined;
      this.subscribed = undefined;
      await subscriber?.quit().catch(() => undefined);
    };
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

  private async read(owner: string, taskId: string): Promise<{ record: TaskRecord; version: string; client: string } | undefined> {
    const [version, json, client] = (await this.redis.call('HMGET', this.taskKey(taskId), 'v', 'json', 'c')) as (string | null)[];
    if (version === null || json === null) return undefined;
    const record = JSON.parse(json) as TaskRecord;
    if (record.owner !== owner || record.expiresAt <= this.now()) return undefined;
    return { record, version, client: client ?? owner };
  }

  /** Writes `json` if the task is still at `version`; with `cancelled` (its client), the task joins the cancelled sets. */
  private async swap(taskId: string, version: string, json: string, cancelled?: string, expiresAt?: number): Promise<boolean> {
    const marks = cancelled !== undefined ? [this.cancelledKey(cancelled), this.allCancelledKey] : [];
    const args = cancelled !== undefined ? [version, json, expiresAt!, taskId] : [version, json];
    return Number(await this.redis.call('EVAL', SWAP, 1 + marks.length, this.taskKey(taskId), ...marks, ...args)) === 1;
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

  private clientKey(client: string): string {
    return `${this.prefix}tasks-by:${client}`;
  }

  private cancelledKey(client: string): string {
    return `${this.prefix}cancelled-by:${client}`;
  }

  private get allKey(): string {
    return `${this.prefix}tasks`;
  }

  private get allCancelledKey(): string {
    return `${this.prefix}cancelled`;
  }
}
