import { createHash } from 'node:crypto';
import type { QueuedTask } from '../tasks';

/** The part of an ioredis client (BullMQ's own connection) the scripts run on. */
export interface LaneRedis {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

/** How long an admission holds its place when the task it admitted is never enqueued (its process died). */
const ADMISSION_MS = 60_000;

// A lane's runs wait in Redis structures of their own, beside BullMQ's queue, so that clients take turns: one list
// of runs per client (`q:<client>`), and a ring of the clients that have some. BullMQ holds one job per run, a
// turn: whichever worker takes a turn claims the next run in the ring's order (the head client's oldest run; the
// client goes to the back of the ring while it has more), and the run is kept under the turn's id until it ends,
// so that a turn BullMQ starts again (its worker died) runs the same run. Every script is O(1) in the runs waiting.
// `count` is the number of runs waiting, `held` the admissions given and not yet enqueued (id → expiry).

// ADMIT — KEYS: count, held. ARGV: id, now, expiresAt, max. 1: a place is held for the id; 0: the lane is full.
const ADMIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if tonumber(redis.call('GET', KEYS[1]) or '0') + redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1`;

// PUSH — KEYS: count, held, ring, the client's list. ARGV: id, client, run, now, max. Takes the place ADMIT held
// (or one that is free: 0 when there is none).
const PUSH = `
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
  if tonumber(redis.call('GET', KEYS[1]) or '0') + redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 0 end
end
if redis.call('RPUSH', KEYS[4], ARGV[3]) == 1 then redis.call('RPUSH', KEYS[3], ARGV[2]) end
redis.call('INCR', KEYS[1])
return 1`;

// WITHDRAW — KEYS: count, ring, the client's list. ARGV: run, client. Undoes a PUSH whose turn could not be queued.
const WITHDRAW = `
if redis.call('LREM', KEYS[3], -1, ARGV[1]) == 0 then return 0 end
redis.call('DECR', KEYS[1])
if redis.call('LLEN', KEYS[3]) == 0 then redis.call('LREM', KEYS[2], 0, ARGV[2]) end
return 1`;

// CLAIM — KEYS: count, ring, claimed. ARGV: turn, the prefix of the clients' lists. The run of this turn: the one it
// claimed before (a turn started again), else the next in the ring's order; nil when none waits.
const CLAIM = `
local held = redis.call('HGET', KEYS[3], ARGV[1])
if held then return held end
local client = redis.call('LPOP', KEYS[2])
if not client then return false end
local list = ARGV[2] .. client
local run = redis.call('LPOP', list)
if redis.call('LLEN', list) > 0 then redis.call('RPUSH', KEYS[2], client) end
if not run then return false end
redis.call('DECR', KEYS[1])
redis.call('HSET', KEYS[3], ARGV[1], run)
return run`;

/** The fair structures of one lane (a BullMQ queue) in Redis. */
export class FairLane {
  private readonly base: string;

  constructor(
    prefix: string,
    lane: string,
    private readonly maxQueued: number,
    private readonly redis: () => Promise<LaneRedis>,
  ) {
    // Under BullMQ's prefix and the lane's name: the same Cluster slot as the queue when the prefix has braces.
    this.base = `${prefix}:${lane}:fair:`;
  }

  /** Holds a place for `id`; false when `maxQueued` runs (and admissions) already wait. */
  async admit(id: string): Promise<boolean> {
    const now = Date.now();
    return Number(await this.eval(ADMIT, [this.key('count'), this.key('held')], id, now, now + ADMISSION_MS, this.maxQueued)) === 1;
  }

  /** Gives back the place held for `id` (its task was not created). */
  async release(id: string): Promise<void> {
    await (await this.redis()).call('ZREM', this.key('held'), id);
  }

  /** Puts `task` in its client's list; false when the lane is full and no place was held for it. */
  async push(task: QueuedTask): Promise<boolean> {
    const client = clientOf(task);
    const keys = [this.key('count'), this.key('held'), this.key('ring'), this.key(`q:${client}`)];
    return Number(await this.eval(PUSH, keys, task.taskId, client, JSON.stringify(task), Date.now(), this.maxQueued)) === 1;
  }

  /** Takes `task` out again (its turn could not be queued). */
  async withdraw(task: QueuedTask): Promise<void> {
    const client = clientOf(task);
    await this.eval(WITHDRAW, [this.key('count'), this.key('ring'), this.key(`q:${client}`)], JSON.stringify(task), client);
  }

  /** The run of `turn`: the next client's oldest, or the one the turn claimed before; undefined when none waits. */
  async claim(turn: string): Promise<QueuedTask | undefined> {
    const run = await this.eval(CLAIM, [this.key('count'), this.key('ring'), this.key('claimed')], turn, this.key('q:'));
    return typeof run === 'string' ? (JSON.parse(run) as QueuedTask) : undefined;
  }

  /** The run `turn` claimed, while it has not ended. */
  async claimed(turn: string): Promise<QueuedTask | undefined> {
    const run = await (await this.redis()).call('HGET', this.key('claimed'), turn);
    return typeof run === 'string' ? (JSON.parse(run) as QueuedTask) : undefined;
  }

  /** The run of `turn` ended (settled, or given up on). */
  async done(turn: string): Promise<void> {
    await (await this.redis()).call('HDEL', this.key('claimed'), turn);
  }

  private key(name: string): string {
    return `${this.base}${name}`;
  }

  private async eval(script: string, keys: string[], ...args: (string | number)[]): Promise<unknown> {
    return (await this.redis()).call('EVAL', script, keys.length, ...keys, ...args);
  }
}

/** Who takes turns: the client whose bounds the task counts against (its address when anonymous), else its owner; digested, so every key is short. */
function clientOf(task: QueuedTask): string {
  return createHash('sha256')
    .update(task.client ?? task.owner)
    .digest('base64url')
    .slice(0, 22);
}
