import { StateError } from './state.error';
import { wholeOption } from '../errors';
import { entryBytes, type StateStore } from './state-store';

/** Bounds and clock of {@link InMemoryStateStore}. */
export interface StateStoreOptions {
  /** Bytes (keys and JSON values) one owner may keep. Default 1 MiB. */
  maxBytesPerOwner?: number;
  /** Bytes the store keeps in all (every owner). Default 64 MiB. */
  maxBytes?: number;
  /** Bytes the owners of one client (an HTTP client key: an address, or what `clientKey` derives) keep together. Default a quarter of `maxBytes`. */
  maxBytesPerClient?: number;
  /** The clock (epoch milliseconds); a spec passes a fake one. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  readonly json: string;
  readonly bytes: number;
  readonly expiresAt: number;
  readonly client?: string;
}

interface Owned {
  readonly entries: Map<string, Entry>;
  bytes: number;
}

/**
 * `ctx.state` in this process's memory (the default): bounded per owner and in all, each value gone after its
 * TTL. Not shared between instances: use `RedisStateStore` (mcp-reflect/redis) for that.
 *
 * @example
 * const store = new InMemoryStateStore({ maxBytesPerOwner: 64 * 1024 });
 */
export class InMemoryStateStore implements StateStore {
  private readonly owners = new Map<string, Owned>();
  private bytes = 0;
  /** Bytes kept by the owners of each client (only clients with some). */
  private readonly clients = new Map<string, number>();
  private readonly maxBytesPerClient: number;
  private readonly maxBytesPerOwner: number;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(options: StateStoreOptions = {}) {
    const bound = (name: 'maxBytesPerOwner' | 'maxBytes' | 'maxBytesPerClient', fallback: number) =>
      wholeOption((value) => `new InMemoryStateStore({ ${name}: ${value} })`, options[name], fallback, 'bytes');
    this.maxBytes = bound('maxBytes', 64 * 1024 * 1024);
    this.maxBytesPerOwner = Math.min(bound('maxBytesPerOwner', 1024 * 1024), this.maxBytes);
    this.maxBytesPerClient = Math.min(bound('maxBytesPerClient', Math.floor(this.maxBytes / 4)), this.maxBytes);
    this.now = options.now ?? Date.now;
  }

  async get(owner: string, key: string): Promise<string | undefined> {
    const owned = this.owners.get(owner);
    const entry = owned?.entries.get(key);
    if (!owned || !entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.json;
    this.drop(owner, owned, key);
    return undefined;
  }

  async set(owner: string, key: string, json: string, ttlMs: number, client?: string): Promise<void> {
    const bytes = entryBytes(key, json);
    // Expired values go first where a bound would be passed; the value it replaces does not count.
    const over = () => {
      const owned = this.owners.get(owner);
      const replaced = owned?.entries.get(key)?.bytes ?? 0;
      if ((owned?.bytes ?? 0) - replaced + bytes > this.maxBytesPerOwner) return StateError.full(this.maxBytesPerOwner);
      const sameClient = client !== undefined && owned?.entries.get(key)?.client === client ? replaced : 0;
      if (client !== undefined && (this.clients.get(client) ?? 0) - sameClient + bytes > this.maxBytesPerClient) return StateError.clientFull(this.maxBytesPerClient);
      return this.bytes - replaced + bytes > this.maxBytes ? StateError.storeFull(this.maxBytes) : undefined;
    };
    if (over()) this.sweep();
    const full = over();
    if (full) throw full;
    let owned = this.owners.get(owner);
    if (!owned) this.owners.set(owner, (owned = { entries: new Map(), bytes: 0 }));
    const previous = owned.entries.get(key);
    if (previous) this.drop(owner, owned, key);
    if (!this.owners.has(owner)) this.owners.set(owner, owned);
    owned.entries.set(key, { json, bytes, expiresAt: this.now() + ttlMs, ...(client !== undefined ? { client } : {}) });
    owned.bytes += bytes;
    this.bytes += bytes;
    if (client !== undefined) this.clients.set(client, (this.clients.get(client) ?? 0) + bytes);
  }

  async delete(owner: string, key: string): Promise<boolean> {
    const owned = this.owners.get(owner);
    const entry = owned?.entries.get(key);
    if (!owned || !entry) return false;
    this.drop(owner, owned, key);
    return entry.expiresAt > this.now();
  }

  private drop(owner: string, owned: Owned, key: string): void {
    const entry = owned.entries.get(key);
    if (!entry) return;
    owned.entries.delete(key);
    owned.bytes -= entry.bytes;
    this.bytes -= entry.bytes;
    if (entry.client !== undefined) {
      const left = (this.clients.get(entry.client) ?? 0) - entry.bytes;
      if (left > 0) this.clients.set(entry.client, left);
      else this.clients.delete(entry.client);
    }
    if (owned.entries.size === 0) this.owners.delete(owner);
  }

  private sweep(): void {
    const now = this.now();
    for (const [owner, owned] of [...this.owners]) for (const [key, entry] of [...owned.entries]) if (entry.expiresAt <= now) this.drop(owner, owned, key);
  }
}
