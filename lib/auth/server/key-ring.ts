import type { AuthStore, ServerLogger } from '../../interfaces';
import type { TokenSealer } from './sealed-tokens';
import { generatedKey } from './signing-keys';

/** Where the ring is kept in the auth store (sealed: private keys). */
const RING_KEY = 'signing-keys';

/** One signing key of the ring: the private JWK and when it was made (seconds since the epoch). */
interface RingKey {
  readonly jwk: Record<string, unknown>;
  readonly createdAt: number;
}

/** `keys.rotation`, resolved (seconds). */
export interface RotationSchedule {
  /** A new key is made this long after the last one. */
  readonly every: number;
  /** A new key is published this long before it signs (clients and resource servers fetch the JWKS meanwhile). */
  readonly publishAhead: number;
  /** An old key is kept this long after it stopped signing: its tokens' lifetime (and a minute). */
  readonly keep: number;
}

/**
 * The signing keys of `keys.rotation`, shared by every instance on the store: a new key is made every `every`
 * seconds (by one instance: a marker in the store), published `publishAhead` before it signs, and the old one kept
 * for verification until the tokens it signed have expired. `current()` answers the keys oidc-provider is given —
 * the one that signs first, then the others it publishes — and `changed` is called when they change.
 */
export class KeyRing {
  private timer?: NodeJS.Timeout;
  private last = '';

  constructor(
    private readonly store: AuthStore,
    private readonly sealer: TokenSealer,
    private readonly schedule: RotationSchedule,
    private readonly logger: ServerLogger,
  ) {}

  /** The keys now, in oidc-provider's order (the signing key first), a new one made when it is time. */
  async current(): Promise<Record<string, unknown>[]> {
    const now = Math.floor(Date.now() / 1000);
    let ring = await this.read();
    const newest = ring[ring.length - 1];
    if (!newest || newest.createdAt <= now - (this.schedule.every - this.schedule.publishAhead)) ring = await this.addKey(ring, now);
    const active = activeKey(ring, now, this.schedule.publishAhead);
    // A key that stopped signing more than `keep` ago signed no token still alive: it goes.
    const kept = ring.filter((key, i) => key === active || i > ring.indexOf(active) || retiredAt(ring, i, this.schedule.publishAhead) + this.schedule.keep > now);
    return [active.jwk, ...kept.filter((key) => key !== active).reverse().map((key) => key.jwk)];
  }

  /** Checks the ring every tenth of the schedule (at least every minute); `changed` is given the keys when they differ. */
  start(changed: (keys: Record<string, unknown>[]) => void): void {
    const period = Math.max(250, Math.min(60_000, (Math.min(this.schedule.every, this.schedule.publishAhead) * 1000) / 4));
    this.timer = setInterval(() => {
      this.current().then(
        (keys) => {
          const ids = keys.map((k) => k.kid).join(' ');
          if (ids !== this.last) {
            this.last = ids;
            changed(keys);
          }
        },
        (error: unknown) => this.logger.warn(`auth server: the signing keys could not be read: ${error instanceof Error ? error.message : String(error)}`),
      );
    }, period);
    this.timer.unref();
  }

  /** The ids the application now signs and publishes with (set by the first load). */
  loaded(keys: Record<string, unknown>[]): void {
    this.last = keys.map((k) => k.kid).join(' ');
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async read(): Promise<RingKey[]> {
    const sealed = await this.store.get(RING_KEY);
    const plain = sealed === undefined ? undefined : this.sealer.open(sealed, RING_KEY);
    if (sealed !== undefined && plain === undefined) this.logger.warn('auth server: the signing keys in the store were sealed with another keys.upstreamTokens: give every instance the same one.');
    return plain === undefined ? [] : (JSON.parse(plain) as RingKey[]);
  }

  /** A new key, made by one instance: the others wait for it and read it back. */
  private async addKey(ring: RingKey[], now: number): Promise<RingKey[]> {
    const turn = `${RING_KEY}:next:${ring.length > 0 ? ring[ring.length - 1].createdAt : 0}`;
    const mine = this.store.increment ? (await this.store.increment(turn, 1, 60)) === 1 : true;
    if (!mine) {
      for (let waited = 0; waited < 5_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const read = await this.read();
        if (read.length > ring.length) return read;
      }
    }
    // Keys retired longer than `keep` ago are dropped for good.
    const live = ring.filter((_key, i) => retiredAt(ring, i, this.schedule.publishAhead) + this.schedule.keep > now);
    const next = [...live, { jwk: generatedKey(), createdAt: now }];
    const lifetime = this.schedule.every + this.schedule.publishAhead + this.schedule.keep + 86_400;
    await this.store.set(RING_KEY, this.sealer.seal(JSON.stringify(next), RING_KEY), lifetime);
    return next;
  }
}

/** The newest key published at least `publishAhead` ago; the first key ever signs at once. */
function activeKey(ring: RingKey[], now: number, publishAhead: number): RingKey {
  for (let i = ring.length - 1; i > 0; i--) if (ring[i].createdAt + publishAhead <= now) return ring[i];
  return ring[0];
}

/** When key `i` stopped signing: when the next one became active. */
function retiredAt(ring: RingKey[], i: number, publishAhead: number): number {
  return i + 1 < ring.length ? ring[i + 1].createdAt + publishAhead : Number.POSITIVE_INFINITY;
}
