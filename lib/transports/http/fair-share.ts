/** What the fair share needs to know of a place (a session, a listen stream): whose it is, and when it was last used. */
export interface HeldPlace {
  readonly client: string | undefined;
  readonly lastSeen: number;
}

/** The places one client holds, and those it is opening (admitted, not registered yet). */
interface Holder<S> {
  readonly places: Set<S>;
  opening: number;
}

/**
 * The places of a bounded table by client (the sessions of an endpoint, its listen streams), for the bound in
 * all, the bound per client and the fair share of a full table. Places whose client is not known (no address,
 * `clientKey` gave none) are held by one client, `undefined`. A place being opened is counted from its
 * admission (`reserve`), so that concurrent requests cannot overshoot.
 */
export class FairShareTable<S extends HeldPlace> {
  private readonly holders = new Map<string | undefined, Holder<S>>();
  private total = 0;

  /** Places held and being opened, by all clients. */
  get size(): number {
    return this.total;
  }

  /** Places held and being opened by `client`. */
  count(client: string | undefined): number {
    const holder = this.holders.get(client);
    return holder ? holder.places.size + holder.opening : 0;
  }

  /** Counts one place `client` is opening; the function returned un-counts it (once) if it never registers. */
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

  /** A place is now held: opened under a reservation, which `release` gives back (or at once, without one). */
  add(place: S, release?: () => void): void {
    release?.();
    this.holder(place.client).places.add(place);
    this.total++;
  }

  delete(place: S): void {
    const holder = this.holders.get(place.client);
    if (!holder?.places.delete(place)) return;
    this.total--;
    this.forgetIfEmpty(place.client, holder);
  }

  /**
   * The place to end so that `client` may open one in a full table: the least recently used place of the
   * client holding the most, when it holds at least two more than `client` (after the exchange neither holds more
   * than the other did, so two clients never take places back and forth). Among clients holding as many, the one
   * whose place has been unused the longest gives it up. Undefined: `client` already holds its fair share.
   */
  fairShareVictim(client: string | undefined): S | undefined {
    const own = this.count(client);
    let victim: S | undefined;
    let most = own + 2;
    for (const [key, holder] of this.holders) {
      if (key === client || holder.places.size === 0) continue;
      const held = holder.places.size + holder.opening;
      if (held < most) continue;
      const oldest = leastRecentlyUsed(holder.places);
      if (held > most || !victim || oldest.lastSeen < victim.lastSeen) victim = oldest;
      most = held;
    }
    return victim;
  }

  private holder(client: string | undefined): Holder<S> {
    let holder = this.holders.get(client);
    if (!holder) this.holders.set(client, (holder = { places: new Set(), opening: 0 }));
    return holder;
  }

  private forgetIfEmpty(client: string | undefined, holder: Holder<S>): void {
    if (holder.places.size === 0 && holder.opening === 0) this.holders.delete(client);
  }
}

function leastRecentlyUsed<S extends HeldPlace>(places: Iterable<S>): S {
  let oldest: S | undefined;
  for (const place of places) if (!oldest || place.lastSeen < oldest.lastSeen) oldest = place;
  return oldest!;
}
