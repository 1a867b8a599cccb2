/** What the fair share needs to know of a session: whose it is, and when it was last used. */
export interface HeldSession {
  readonly client: string | undefined;
  readonly lastSeen: number;
}

/** The sessions one client holds, and those it is opening (admitted, not registered yet). */
interface Holder<S> {
  readonly sessions: Set<S>;
  opening: number;
}

/**
 * The sessions of an endpoint by client, for `maxSessions`, `maxSessionsPerClient` and the fair share of a full
 * table. Sessions whose client is not known (no address, `clientKey` gave none) are held by one client, `undefined`.
 * A session being opened is counted from its admission, so that concurrent `initialize`s cannot overshoot.
 */
export class SessionHolders<S extends HeldSession> {
  private readonly holders = new Map<string | undefined, Holder<S>>();
  private total = 0;

  /** Sessions held and being opened, by all clients. */
  get size(): number {
    return this.total;
  }

  /** Sessions held and being opened by `client`. */
  count(client: string | undefined): number {
    const holder = this.holders.get(client);
    return holder ? holder.sessions.size + holder.opening : 0;
  }

  /** Counts one session `client` is opening; the function returned un-counts it (once) if it never registers. */
  reserve(client: string | undefined): () => void {
    this.holder(client).opening++;
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const holder = this.holders.get(client);
      if (!holder) return;
      holder.opening--;
      this.total--;
      this.forgetIfEmpty(client, holder);
    };
  }

  /** A session opened under a reservation (which `release` gives back) is now held. */
  add(session: S, release: () => void): void {
    release();
    this.holder(session.client).sessions.add(session);
    this.total++;
  }

  delete(session: S): void {
    const holder = this.holders.get(session.client);
    if (!holder?.sessions.delete(session)) return;
    this.total--;
    this.forgetIfEmpty(session.client, holder);
  }

  /**
   * The session to end so that `client` may open one in a full table: the least recently used session of the
   * client holding the most, when it holds at least two more than `client` (after the exchange neither holds more
   * than the other did, so two clients never take places back and forth). Among clients holding as many, the one
   * whose session has been unused the longest gives it up. Undefined: `client` already holds its fair share.
   */
  fairShareVictim(client: string | undefined): S | undefined {
    const own = this.count(client);
    let victim: S | undefined;
    let most = own + 2;
    for (const [key, holder] of this.holders) {
      if (key === client || holder.sessions.size === 0) continue;
      const held = holder.sessions.size + holder.opening;
      if (held < most) continue;
      const oldest = leastRecentlyUsed(holder.sessions);
      if (held > most || !victim || oldest.lastSeen < victim.lastSeen) victim = oldest;
      most = held;
    }
    return victim;
  }

  private holder(client: string | undefined): Holder<S> {
    let holder = this.holders.get(client);
    if (!holder) this.holders.set(client, (holder = { sessions: new Set(), opening: 0 }));
    return holder;
  }

  private forgetIfEmpty(client: string | undefined, holder: Holder<S>): void {
    if (holder.sessions.size === 0 && holder.opening === 0) this.holders.delete(client);
  }
}

function leastRecentlyUsed<S extends HeldSession>(sessions: Iterable<S>): S {
  let oldest: S | undefined;
  for (const session of sessions) if (!oldest || session.lastSeen < oldest.lastSeen) oldest = session;
  return oldest!;
}
