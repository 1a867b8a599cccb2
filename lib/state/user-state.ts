import { StateError } from './state.error';
import type { StateStore } from './state-store';

/** What a request channel gives `ctx.state`: the store, the caller's owner key (undefined: it has none), and the TTLs. */
export interface StateBinding {
  readonly store: StateStore;
  readonly owner: string | undefined;
  /** Who the caller is to the transport's per-client bounds (the HTTP client key): owners of one client share a bound. */
  readonly client?: string;
  readonly ttlMs: number;
  readonly maxTtlMs: number;
}

/** Options of `ctx.state.set()`. */
export interface StateSetOptions {
  /** How long the value is kept (ms), within the server's `state.maxTtlMs`. Default: the server's `state.ttlMs`. */
  ttlMs?: number;
}

const MAX_KEY = 256;

/**
 * The caller's state (`ctx.state`): JSON values under string keys, kept between calls of the same caller and
 * read from any instance sharing the store. The caller is its 2025-11-25 session, else its verified identity
 * (subject and client), else its stdio or in-memory connection; a call with none of them is refused
 * (`StateError`), never given a shared state. Values go through JSON: a `Date` comes back as its string.
 *
 * @example
 * const cart = (await ctx.state.get<string[]>('cart')) ?? [];
 * await ctx.state.set('cart', [...cart, item], { ttlMs: 3_600_000 });
 */
export class UserState {
  constructor(private readonly binding: StateBinding | undefined) {}

  /** The value under `key`, or undefined when there is none (never set, deleted, or expired). */
  async get<T = unknown>(key: string): Promise<T | undefined> {
    const { store, owner } = this.bound(key);
    const json = await store.get(owner, key);
    return json === undefined ? undefined : (JSON.parse(json) as T);
  }

  /** Keeps `value` (anything JSON can hold) under `key`; a `StateError` when the caller's state would be over its budget. */
  async set(key: string, value: unknown, options: StateSetOptions = {}): Promise<void> {
    const { store, owner, client, ttlMs, maxTtlMs } = this.bound(key);
    const ttl = options.ttlMs ?? ttlMs;
    if (!Number.isSafeInteger(ttl) || ttl < 1) throw new TypeError(`Cannot set ctx.state '${key}' with ttlMs ${JSON.stringify(ttl)}: give a whole number of milliseconds above 0.`);
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      throw new TypeError(`Cannot set ctx.state '${key}': the value is not JSON (${error instanceof Error ? error.message : String(error)}).`);
    }
    if (json === undefined) throw new TypeError(`Cannot set ctx.state '${key}' to ${typeof value}: give a JSON value (use ctx.state.delete to remove it).`);
    await store.set(owner, key, json, Math.min(ttl, maxTtlMs), client);
  }

  /** Removes `key`; resolves to whether it was there. */
  async delete(key: string): Promise<boolean> {
    const { store, owner } = this.bound(key);
    return store.delete(owner, key);
  }

  private bound(key: string): StateBinding & { owner: string } {
    if (typeof key !== 'string' || key === '' || key.length > MAX_KEY) {
      throw new TypeError(`Cannot use ${JSON.stringify(key)} as a ctx.state key: a key is a non-empty string of at most ${MAX_KEY} characters.`);
    }
    if (!this.binding) throw StateError.unavailable();
    if (this.binding.owner === undefined) throw StateError.noOwner();
    return this.binding as StateBinding & { owner: string };
  }
}
