import { TaskLimitError } from './task-limit.error';
import { answeredRecord, changedRecord, eventOf, newRecord, overBudget, pageOf, serialise } from './task-records';
import type { NewTask, TaskChange, TaskEvent, TaskPage, TaskRecord, TaskStatus, TaskStore } from './task-store';

/** Bounds and clock of a task store. */
export interface TaskStoreOptions {
  /** Most live tasks one owner may hold; one more is refused. Default 100. */
  maxTasksPerOwner?: number;
  /** Most live tasks in the store (every owner). Default 10,000. */
  maxTasks?: number;
  /** Bytes of results, errors and input kept in all (JSON). Default 64 MiB. */
  maxBytes?: number;
  /** The clock (epoch milliseconds); a spec passes a fake one. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  record: TaskRecord;
  bytes: number;
}

/**
 * Tasks in this process's memory, bounded in entries (per owner and in all) and bytes, each gone after its TTL.
 * The default store: tasks do not survive a restart and are not shared between instances (use
 * `RedisTaskStore` for that).
 *
 * @example
 * const store = new InMemoryTaskStore({ maxTasksPerOwner: 20, maxBytes: 16 * 1024 * 1024 });
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly entries = new Map<string, Entry>();
  private readonly owners = new Map<string, Set<string>>();
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  private bytes = 0;
  private readonly maxTasksPerOwner: number;
  private readonly maxTasks: number;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(options: TaskStoreOptions = {}) {
    this.maxTasksPerOwner = options.maxTasksPerOwner ?? 100;
    this.maxTasks = options.maxTasks ?? 10_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  /** Live tasks in the store (expired ones are dropped first). */
  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  async create(task: NewTask): Promise<TaskRecord> {
    const held = this.owners.get(task.owner);
    if (held && held.size >= this.maxTasksPerOwner) this.sweepOwner(held);
    if (held && held.size >= this.maxTasksPerOwner) throw TaskLimitError.perOwner(this.maxTasksPerOwner);
    if (this.entries.size >= this.maxTasks) this.sweep();
    if (this.entries.size >= this.maxTasks) throw TaskLimitError.total(this.maxTasks);
    const record = newRecord(task, this.now());
    if (!this.room(sizeOf(record))) throw TaskLimitError.bytes(this.maxBytes);
    this.put(record);
    let owned = this.owners.get(task.owner);
    if (!owned) this.owners.set(task.owner, (owned = new Set()));
    owned.add(task.taskId);
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
    const stored = this.fits(record, entry) ? record : overBudget(record, TaskLimitError.bytes(this.maxBytes));
    this.put(stored);
    const event = eventOf(stored);
    if (event) this.emit(event);
    return stored;
  }

  async answer(owner: string, taskId: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined> {
    const entry = this.live(owner, taskId);
    if (!entry) return undefined;
    const answered = answeredRecord(entry.record, responses, this.now());
    if (!answered) return entry.record;
    if (!this.fits(answered.record, entry)) throw TaskLimitError.bytes(this.maxBytes);
    this.put(answered.record);
    if (answered.done) this.emit({ kind: 'answered', taskId });
    return answered.record;
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const owned = this.owners.get(owner);
    if (!owned) return { tasks: [] };
    this.sweepOwner(owned);
    return pageOf([...owned], cursor, limit, (id) => this.entries.get(id)?.record);
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

  /** Whether `record` fits the byte budget once `previous` is replaced by it. */
  private fits(record: TaskRecord, previous: Entry): boolean {
    return this.room(sizeOf(record) - previous.bytes);
  }

  /** Whether `more` bytes fit the budget, expired tasks dropped first when they do not. */
  private room(more: number): boolean {
    if (this.bytes + more > this.maxBytes) this.sweep();
    return this.bytes + more <= this.maxBytes;
  }

  private put(record: TaskRecord): void {
    const previous = this.entries.get(record.taskId);
    const bytes = sizeOf(record);
    this.bytes += bytes - (previous?.bytes ?? 0);
    this.entries.set(record.taskId, { record, bytes });
  }

  private remove(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry) return;
    this.entries.delete(taskId);
    this.bytes -= entry.bytes;
    const owned = this.owners.get(entry.record.owner);
    owned?.delete(taskId);
    if (owned?.size === 0) this.owners.delete(entry.record.owner);
  }

  private sweepOwner(owned: Set<string>): void {
    const now = this.now();
    for (const id of [...owned]) if (this.entries.get(id)!.record.expiresAt <= now) this.remove(id);
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
