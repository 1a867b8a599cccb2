import { TaskLimitError } from './task-limit.error';
import { wholeOption } from '../errors';
import { refuseRenamedOptions } from './task-support';
import { answeredRecord, changedRecord, eventOf, newRecord, overBudget, pageOf, serialise } from './task-records';
import type { NewTask, TaskChange, TaskEvent, TaskPage, TaskRecord, TaskStatus, TaskStore } from './task-store';

/** Bounds and clock of a task store. */
export interface TaskStoreOptions {
  /**
   * Most live tasks one client may hold (its verified identity; without one, its remote address, else its
   * session: see docs/tasks.md); one more is refused. Default 100.
   */
  maxTasksPerClient?: number;
  /** Most live tasks in the store (every client). Default 10,000. */
  maxTasks?: number;
  /** Bytes of results, errors and input kept in all (JSON). Default 64 MiB. */
  maxBytes?: number;
  /** Bytes the tasks of one client may hold, so that one client cannot fill `maxBytes` for all. Default 16 MiB. */
  maxBytesPerClient?: number;
  /** The clock (epoch milliseconds); a spec passes a fake one. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  record: TaskRecord;
  bytes: number;
  /** Whose bounds it counts against (`NewTask.client`). */
  readonly client: string;
}

/** What one client holds: its tasks' ids (oldest first), the cancelled ones among them, and their bytes. */
interface Holding {
  readonly ids: Set<string>;
  readonly cancelled: Set<string>;
  bytes: number;
}

/**
 * Tasks in this process's memory, bounded in entries (per client and in all; a cancelled task gives its place to
 * a new one) and bytes, each gone after its TTL.
 * The default store: tasks do not survive a restart and are not shared between instances (use
 * `RedisTaskStore` for that).
 *
 * @example
 * const store = new InMemoryTaskStore({ maxTasksPerClient: 20, maxBytes: 16 * 1024 * 1024 });
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly entries = new Map<string, Entry>();
  /** Each owner's task ids, oldest first (what `list` pages and `dropOwner` drops). */
  private readonly owners = new Map<string, Set<string>>();
  /** What each client holds (what the per-client bounds count). */
  private readonly clients = new Map<string, Holding>();
  /** Every cancelled task: where a bound is reached, one of them gives its place. */
  private readonly cancelled = new Set<string>();
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  private bytes = 0;
  private readonly maxTasksPerClient: number;
  private readonly maxTasks: number;
  private readonly maxBytes: number;
  private readonly maxBytesPerClient: number;
  private readonly now: () => number;

  constructor(options: TaskStoreOptions = {}) {
    refuseRenamedOptions((option) => `new InMemoryTaskStore({ ${option} })`, options);
    const bound = (name: keyof TaskStoreOptions, fallback: number, unit: string) =>
      wholeOption((value) => `new InMemoryTaskStore({ ${name}: ${value} })`, options[name], fallback, unit);
    this.maxTasksPerClient = bound('maxTasksPerClient', 100, 'tasks');
    this.maxTasks = bound('maxTasks', 10_000, 'tasks');
    this.maxBytes = bound('maxBytes', 64 * 1024 * 1024, 'bytes');
    this.maxBytesPerClient = Math.min(bound('maxBytesPerClient', 16 * 1024 * 1024, 'bytes'), this.maxBytes);
    this.now = options.now ?? Date.now;
  }

  /** Live tasks in the store (expired ones are dropped first). */
  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  async create(task: NewTask): Promise<TaskRecord> {
    const client = task.client ?? task.owner;
    // Where a bound is reached, expired tasks go first, then the cancelled one nearest its expiry (docs/tasks.md).
    if ((this.clients.get(client)?.ids.size ?? 0) >= this.maxTasksPerClient) this.sweepIds(this.clients.get(client)!.ids);
    const held = this.clients.get(client);
    if (held && held.ids.size >= this.maxTasksPerClient && !this.evictCancelled(held.cancelled)) throw TaskLimitError.perClient(this.maxTasksPerClient);
    if (this.entries.size >= this.maxTasks) this.sweep();
    if (this.entries.size >= this.maxTasks && !this.evictCancelled(this.cancelled)) throw TaskLimitError.total(this.maxTasks);
    const record = newRecord(task, this.now());
    const bytes = sizeOf(record);
    const full = this.full(client, bytes);
    if (full) throw full;
    let holding = this.clients.get(client);
    if (!holding) this.clients.set(client, (holding = { ids: new Set(), cancelled: new Set(), bytes: 0 }));
    holding.ids.add(task.taskId);
    let owned = this.owners.get(task.owner);
    if (!owned) this.owners.set(task.owner, (owned = new Set()));
    owned.add(task.taskId);
    this.entries.set(task.taskId, { record, bytes: 0, client });
    this.put(record, bytes);
    return record;
  }

  async get(owner: string, taskId: string): Promise<TaskRecord | undefined> {
    return this.live(owner, taskId)?.record;
  }

  async update(owner: string, taskId: string, change: TaskChange, from: readonly TaskStatus[]): Promise<TaskRecord | undefined> {
    const entry = this.live(owner, taskId);
    const record = entry && changedRecord(entry.record, change, from, this.now());
    if (!entry || !record) return undefined;
    // Too big to keep: the task fails instead (its result is lost, the store stays within its bounds).
    const bytes = sizeOf(record);
    const full = this.full(entry.client, bytes - entry.bytes);
    const stored = full ? overBudget(record, full) : record;
    this.put(stored, full ? sizeOf(stored) : bytes);
    const event = eventOf(stored);
    if (event) this.emit(event);
    return stored;
  }

  async answer(owner: string, taskId: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined> {
    const entry = this.live(owner, taskId);
    if (!entry) return undefined;
    const answered = answeredRecord(entry.record, responses, this.now());
    if (!answered) return entry.record;
    const bytes = sizeOf(answered.record);
    const full = this.full(entry.client, bytes - entry.bytes);
    if (full) throw full;
    this.put(answered.record, bytes);
    if (answered.done) this.emit({ kind: 'answered', taskId });
    return answered.record;
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const owned = this.owners.get(owner);
    if (owned) this.sweepIds(owned);
    return pageOf([...(this.owners.get(owner) ?? [])], cursor, limit, (id) => this.entries.get(id)?.record);
  }

  async dropOwner(owner: string): Promise<number> {
    const owned = [...(this.owners.get(owner) ?? [])];
    for (const taskId of owned) this.remove(taskId);
    for (const taskId of owned) this.emit({ kind: 'cancelled', taskId });
    return owned.length;
  }

  watch(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }

  private emit(event: TaskEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private live(owner: string, taskId: string): Entry | undefined {
    const entry = this.entries.get(taskId);
    if (!entry || entry.record.owner !== owner) return undefined;
    if (entry.record.expiresAt <= this.now()) {
      this.remove(taskId);
      return undefined;
    }
    return entry;
  }

  /** The bound `more` bytes of `client` would cross (expired tasks dropped first), or undefined when they fit. */
  private full(client: string, more: number): TaskLimitError | undefined {
    const over = () => (this.clients.get(client)?.bytes ?? 0) + more > this.maxBytesPerClient || this.bytes + more > this.maxBytes;
    if (over()) this.sweep();
    if (this.bytes + more > this.maxBytes) return TaskLimitError.bytes(this.maxBytes);
    return (this.clients.get(client)?.bytes ?? 0) + more > this.maxBytesPerClient ? TaskLimitError.bytesPerClient(this.maxBytesPerClient) : undefined;
  }

  /** Keeps `record` (its entry exists), which takes `bytes` (serialised once, by the caller that checked they fit). */
  private put(record: TaskRecord, bytes: number): void {
    const entry = this.entries.get(record.taskId)!;
    const holding = this.clients.get(entry.client)!;
    this.bytes += bytes - entry.bytes;
    holding.bytes += bytes - entry.bytes;
    entry.record = record;
    entry.bytes = bytes;
    if (record.status === 'cancelled') {
      holding.cancelled.add(record.taskId);
      this.cancelled.add(record.taskId);
    }
  }

  /** Drops the task of `ids` (cancelled ones) nearest its expiry; false when there is none. */
  private evictCancelled(ids: ReadonlySet<string>): boolean {
    let first: Entry | undefined;
    for (const id of ids) {
      const entry = this.entries.get(id)!;
      if (!first || entry.record.expiresAt < first.record.expiresAt) first = entry;
    }
    if (first) this.remove(first.record.taskId);
    return first !== undefined;
  }

  private remove(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry) return;
    this.entries.delete(taskId);
    this.bytes -= entry.bytes;
    const holding = this.clients.get(entry.client)!;
    holding.ids.delete(taskId);
    holding.cancelled.delete(taskId);
    this.cancelled.delete(taskId);
    holding.bytes -= entry.bytes;
    if (holding.ids.size === 0) this.clients.delete(entry.client);
    const owned = this.owners.get(entry.record.owner)!;
    owned.delete(taskId);
    if (owned.size === 0) this.owners.delete(entry.record.owner);
  }

  /** Drops the expired tasks among `ids`. */
  private sweepIds(ids: ReadonlySet<string>): void {
    const now = this.now();
    for (const id of [...ids]) if (this.entries.get(id)!.record.expiresAt <= now) this.remove(id);
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.record.expiresAt <= now) this.remove(id);
  }
}

/** The bytes a record counts for: what a client made it hold (result, error, input), plus its fields. */
function sizeOf(record: TaskRecord): number {
  return Buffer.byteLength(serialise(record));
}
