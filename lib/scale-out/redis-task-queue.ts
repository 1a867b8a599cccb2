import { wholeOption } from '../errors';
import { TaskLimitError, type QueuedTask, type TaskQueue, type TaskRunner } from '../tasks';

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
  /** Runs waiting in a queue (each lane counts its own); one more task call is refused with -32600. Default 10,000. */
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
  readonly data: unknown;
  readonly attemptsStarted: number;
}
interface Queue {
  getWaitingCount(): Promise<number>;
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
 * Task runs on a BullMQ queue in Redis (docs/tasks.md#durable-queue): any instance's worker takes them, a run
 * cut short by a dying process is run again by another (at least once; `@Tool({ task: { retry: false } })`
 * fails it instead), and a full queue refuses new tasks. BullMQ is loaded when the queue is first used: install
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
  private readonly workers: Worker[] = [];

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

  async admit(tool: string): Promise<void> {
    const waiting = await (await this.queue(this.laneOf(tool))).getWaitingCount();
    if (waiting >= this.maxQueued) throw TaskLimitError.queued(this.maxQueued);
  }

  // The bound is asked in admit(), before the task is created (the task service always asks it first).
  async enqueue(task: QueuedTask): Promise<void> {
    await (await this.queue(this.laneOf(task.tool))).add(task.tool, task, { jobId: task.taskId, removeOnComplete: true, removeOnFail: true });
  }

  async work(runner: TaskRunner): Promise<void> {
    const { Worker } = await this.load();
    const lanes: [string, number][] = [[this.name, this.concurrency], ...Object.entries(this.lanes).map(([tool, limit]): [string, number] => [this.laneOf(tool), limit])];
    for (const [lane, concurrency] of lanes) {
      const worker = new Worker(lane, async (job) => runner.run(job.data as QueuedTask, job.attemptsStarted || 1), {
        connection: this.options.connection,
        prefix: this.prefix,
        concurrency,
        lockDuration: this.lockDuration,
        stalledInterval: this.stalledInterval,
        maxStalledCount: this.maxAttempts - 1,
      });
      // Runs never throw (the runner settles their task); a failed job stalled too often: its task fails.
      worker.on('failed', (job, error) => void (job && runner.abandon(job.data as QueuedTask, error.message).catch(() => undefined)));
      worker.on('error', () => undefined);
      this.workers.push(worker);
      await worker.waitUntilReady();
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.workers.splice(0).map((worker) => worker.close(true)));
    const queues = [...this.queues.values()];
    this.queues.clear();
    await Promise.allSettled(queues.map((queue) => queue.close()));
  }

  private laneOf(tool: string): string {
    return Object.hasOwn(this.lanes, tool) ? `${this.name}.${tool}` : this.name;
  }

  private load(): Promise<BullMq> {
    return (this.bullmq ??= import('bullmq') as unknown as Promise<BullMq>);
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
