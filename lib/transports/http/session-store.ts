/** What is kept of a 2025-era session so that another instance can serve it. */
export interface SessionRecord {
  /** The params of the client's `initialize` (protocol version, capabilities, client info). */
  readonly initialize: Record<string, unknown>;
  /** Whose session it is (with authorization), so another instance binds it to the same subject. */
  readonly owner?: string;
}

/**
 * Remembers 2025-era sessions beyond one instance (`RedisSessionStore`): an instance that receives a session
 * id it does not hold looks it up here and opens the session again with the client's `initialize`.
 */
export interface SessionStore {
  save(id: string, record: SessionRecord): Promise<void>;
  load(id: string): Promise<SessionRecord | undefined>;
  /** Keeps a session that is in use from expiring. */
  touch(id: string): Promise<void>;
  /** Forgets a session that ended (DELETE, or a handshake never completed). */
  delete(id: string): Promise<void>;
}
