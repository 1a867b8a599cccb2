/**
 * Where `ctx.state` lives (docs/state.md). Values are JSON text: the store counts their bytes (and the
 * key's) against the owner's budget. Every method is scoped by `owner`; another owner's keys are never seen.
 *
 * @example
 * McpModule.forRoot({ name: 'shop', version: '1.0.0', state: { store: new InMemoryStateStore({ maxBytesPerOwner: 64 * 1024 }) } })
 */
export interface StateStore {
  /** The JSON of `key`, or undefined: never set, deleted, or expired. */
  get(owner: string, key: string): Promise<string | undefined>;
  /**
   * Keeps `json` under `key` for `ttlMs`; throws a `StateLimitError` when the owner's (or the store's) budget
   * would be passed. `client`: who the caller is to the transport (the HTTP client key), when known — a store may
   * bound the owners of one client together, so that one address opening many sessions cannot fill it.
   */
  set(owner: string, key: string, json: string, ttlMs: number, client?: string): Promise<void>;
  /** Removes `key`; resolves to whether it was there. */
  delete(owner: string, key: string): Promise<boolean>;
  /** Releases connections and timers. */
  close?(): Promise<void>;
}

/** The bytes one entry counts for: its key and its JSON (UTF-8), as every store counts them. */
export function entryBytes(key: string, json: string): number {
  return Buffer.byteLength(key) + Buffer.byteLength(json);
}

