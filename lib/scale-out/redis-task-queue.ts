import { wholeOption } from '../errors';
import { TaskLimitError, type QueuedTask, type TaskQueue, type TaskRunner } from '../tasks';
import { FairLane, type LaneRedis } from './fair-lanes';
import { loadPeer } from '../runtime/peer';

/** Options of {@link RedisTaskQueue}. */
export interface RedisTaskQueueOptions {
  /**
   * Where Redis is, as BullMQ takes it: connection options (`{ host, port }`) or an ioredis instance created with
   * `maxRetriesPerRequest: null` (BullMQ's workers need it).
   */
  connection: object;
  /** The queue's name (instances that share it share the work). Default 'mcp-reflect-tasks'. */
  name?: string;
  /** BullMQ's key prefix. Default 'mcp-reflect'. */
  prefix?: string;
  /** Runs one worker process takes at once, over every tool without a limit of its own. Default 10. */
  concurrency?: number;
  /** Runs of one tool one worker process takes at once: such a tool has a queue (a lane) of its own. */
  toolConcurrency?: Readonly<Record<string, number>>;
  /**
   * Runs waiting in a queue (each lane counts its own), exactly, over every instance; one more task call is refused
   * with -32600. Default 10,000.
   */
  maxQueued?: number;
  /**
   * How often a run is started in all: a run whose worker died (no heartbeat for `lockDurationMs`) is started
   * again until then; after that its task fails. Default 3.
   */
  maxAttempts?: number;
  /** How long a worker holds a run without renewing its lock before another may take it (ms). Default 30,000. */
  lockDurationMs?: number;
  /** How often workers look for runs whose worker died (ms). Default 30,000. */
  stalledIntervalMs?: number;
}

// The part of BullMQ used here, typed locally: the declarations of mcp-reflect/redis must not need bullmq's.
interface Job {
  readonly id?: string;
  readonly attemptsStarted: number;
}
interface Queue {
  /** BullMQ 5's connection; BullMQ 6 keeps it on its backend (an ioredis instance, behind a proxy that forwards `call`). */
  readonly client?: Promise<LaneRedis>;
  getBackend?(): { readonly client: Promise<LaneRedis> };
  add(name: string, data: unknown, options: { jobId: string; removeOnComplete: boolean; removeOnFail: boolean }): Promise<unknown>;
  close(): Promise<void>;
}
interface Worker {
  on(event: 'failed', listener: (job: Job | undefined, error: Error) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  waitUntilReady(): Promise<unknown>;
  close(force?: boolean): Promise<void>;
}
interface BullMq {
  Queue: new (name: string, options: object) => Queue;
  Worker: new (name: string, processor: (job: Job) => Promise<void>, options: object) => Worker;
}

/**
 * Task runs on a BullMQ queue in Redis (docs/tasks.md#durable-queue): any instance's worker takes them, clients
 * take turns (a client's hundred queued runs do not delay another's one by a hundred runs), a run cut short by a
 * dying process is run again by another (at least once; `@Tool({ task: { retry: false } })` fails it instead),
 * and a full queue refuses new tasks, exactly at `maxQueued` over every instance. BullMQ is loaded when the queue is first used: install
 * `bullmq` beside mcp-reflect. Use it with a `RedisTaskStore`, so that every instance reads the tasks.
 *
 * @example
 * const tasks = { store: new RedisTaskStore(redis), queue: new RedisTaskQueue({ connection: { host: 'localhost', port: 6379 } }) };
 * McpModule.forRoot({ name: 'jobs', version: '1.0.0', tasks })
 */
export class RedisTaskQueue implements TaskQueue {
  private readonly name: string;
  private readonly prefix: string;
  private readonly concurrency: number;
  private readonly maxQueued: number;
  private readonly maxAttempts: number;
  private readonly lockDuration: number;
  private readonly stalledInterval: number;
  private readonly lanes: Readonly<Record<string, number>>;
  private bullmq?: Promise<BullMq>;
  private readonly queues = new Map<string, Queue>();
  private readonly fair = new Map<string, FairLane>();
  private readonly workers: Worker[] = [];
  /** Counts `close()` calls: a `work()` still starting when the queue closes starts no more workers. */
  private closings = 0;

  constructor(private readonly options: RedisTaskQueueOptions) {
    const whole = (name: keyof RedisTaskQueueOptions, fallback: number, unit: string) =>
      wholeOption((value) => `new RedisTaskQueue({ ${name}: ${value} })`, options[name], fallback, unit);
    this.name = options.name ?? 'mcp-reflect-tasks';
    this.prefix = options.prefix ?? 'mcp-reflect';
    this.concurrency = whole('concurrency', 10, 'runs');
    this.maxQueued = whole('maxQueued', 10_000, 'runs');
    this.maxAttempts = whole('maxAttempts', 3, 'attempts');
    this.lockDuration = whole('lockDurationMs', 30_000, 'milliseconds');
    this.stalledInterval = whole('stalledIntervalMs', 30_000, 'milliseconds');
    for (const [tool, limit] of Object.entries(options.toolConcurrency ?? {})) {
      wholeOption((value) => `new RedisTaskQueue({ toolConcurrency: { ${tool}: ${value} } })`, limit, 1, 'runs');
    }
    this.lanes = { ...options.toolConcurrency };
  }

  async admit(tool: string, taskId: string): Promise<void> {
    if (!(await this.laneOf(tool).admit(taskId))) throw TaskLimitError.queued(this.maxQueued);
  }

  async release(tool: string, taskId: string): Promise<void> {
    await this.laneOf(tool).release(taskId);
  }

  // The run waits in its client's list; BullMQ gets a turn, which runs whichever client's run is next.
  async enqueue(task: QueuedTask): Promise<void> {
    const lane = this.laneOf(task.tool);
    if (!(await lane.push(task))) throw TaskLimitError.queued(this.maxQueued);
    try {
      await (await this.queue(this.nameOf(task.tool))).add('turn', {}, { jobId: task.taskId, removeOnComplete: true, removeOnFail: true });
    } catch (error) {
      await lane.withdraw(task).catch(() => undefined);
      throw error;
    }
  }

  async work(runner: TaskRunner): Promise<void> {
    const closings = this.closings;
    const { Worker } = await this.load();
    const lanes: [string, number][] = [[this.name, this.concurrency], ...Object.entries(this.lanes).map(([tool, limit]): [string, number] => [this.nameOf(tool), limit])];
    for (const [name, concurrency] of lanes) {
      // Closed meanwhile (a bootstrap that failed, an application closed as it started): no more workers.
      if (this.closings !== closings) return;
      const lane = this.lane(name);
      const worker = new Worker(
        name,
        async (job) => {
          const task = await lane.claim(job.id!);
          if (!task) return;
          await runner.run(task, job.attemptsStarted || 1);
          await lane.done(job.id!);
        },
        {
          connection: this.options.connection,
          prefix: this.prefix,
          concurrency,
          lockDuration: this.lockDuration,
          stalledInterval: this.stalledInterval,
          maxStalledCount: this.maxAttempts - 1,
        },
      );
      // Runs never throw (the runner settles their task); a failed turn stalled too often: its run's task fails.
      worker.on('failed', (job, error) => void (job?.id && this.abandon(lane, job.id, runner, error.message).catch(() => undefined)));
      worker.on('error', () => undefined);
      this.workers.push(worker);
      await worker.waitUntilReady();
    }
  }

  async close(): Promise<void> {
    this.closings++;
    await Promise.allSettled(this.workers.splice(0).map((worker) => worker.close(true)));
    const queues = [...this.queues.values()];
    this.queues.clear();
    await Promise.allSettled(queues.map((queue) => queue.close()));
  }

  private async abandon(lane: FairLane, turn: string, runner: TaskRunner, reason: string): Promise<void> {
    const task = await lane.claimed(turn);
    if (task) await runner.abandon(task, reason);
    await lane.done(turn);
  }

  /** The BullMQ queue of `tool`'s runs: a lane of its own with `toolConcurrency`, else the main one. */
  private nameOf(tool: string): string {
    return Object.hasOwn(this.lanes, tool) ? `${this.name}.${tool}` : this.name;
  }

  private laneOf(tool: string): FairLane {
    return this.lane(this.nameOf(tool));
  }

  private lane(name: string): FairLane {
    let lane = this.fair.get(name);
    if (!lane) this.fair.set(name, (lane = new FairLane(this.prefix, name, this.maxQueued, async () => redisOf(await this.queue(name)))));
    return lane;
  }

  private load(): Promise<BullMq> {
    return (this.bullmq ??= Promise.resolve().then(() => loadPeer<BullMq>('bullmq', { feature: 'RedisTaskQueue (mcp-reflect/redis)', install: 'npm install bullmq ioredis' })));
  }

  private async queue(lane: string): Promise<Queue> {
    const existing = this.queues.get(lane);
    if (existing) return existing;
    const { Queue } = await this.load();
    const queue = this.queues.get(lane) ?? new Queue(lane, { connection: this.options.connection, prefix: this.prefix });
    this.queues.set(lane, queue);
    return queue;
  }
}

/** The connection a BullMQ queue runs its commands on. */
function redisOf(queue: Queue): Promise<LaneRedis> {
  const client = queue.client ?? queue.getBackend?.().client;
  if (!client) throw new Error('Cannot reach the Redis connection of the BullMQ queue: RedisTaskQueue needs bullmq 5 or 6.');
  return client;
}
