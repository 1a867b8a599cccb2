import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AnonymousLimitOptions, AuthStore } from '../../interfaces';

/** The bounds of anonymous requests, with their defaults filled in. */
export interface AnonymousLimits {
  readonly window: number;
  readonly maxRequestsPerClient: number;
  readonly maxBytesPerClient: number;
  readonly maxBytes: number;
}

export function anonymousLimits(options: AnonymousLimitOptions = {}): AnonymousLimits {
  return {
    window: options.window ?? 1_800,
    maxRequestsPerClient: options.maxRequestsPerClient ?? 100,
    maxBytesPerClient: options.maxBytesPerClient ?? 1024 * 1024,
    maxBytes: options.maxBytes ?? 8 * 1024 * 1024,
  };
}

/** What a refused anonymous request is answered. */
export interface AnonymousRefusal {
  readonly status: 429 | 503;
  /** Seconds until the window ends. */
  readonly retryAfter: number;
  readonly message: string;
}

/** oidc-provider refuses a larger body: a request that does not say its length is counted at that. */
const MAX_BODY = 56 * 1024;
/** What a request keeps at least (the stored model around its parameters). */
const MIN_COST = 1024;

/**
 * Requests anyone can make that leave state in the store before anyone signed in — a client registration, an
 * authorization request (its interaction), the start of a login (its state), a pushed authorization request.
 */
export function isAnonymousWrite(method: string | undefined, pathname: string): boolean {
  if (method === 'POST' && (pathname === '/oauth/register' || pathname === '/oauth/par')) return true;
  if (pathname === '/oauth/authorize') return method === 'GET' || method === 'POST';
  return method === 'GET' && /^\/oauth\/interaction\/[^/]+$/.test(pathname);
}

/** What a request may keep in the store: its target and its body (as its Content-Length says, else the most allowed). */
export function requestCost(req: IncomingMessage): number {
  const length = Number(req.headers['content-length']);
  const body = req.method === 'GET' || req.method === 'HEAD' ? 0 : Number.isFinite(length) && length >= 0 ? Math.min(length, MAX_BODY) : MAX_BODY;
  return Math.max(MIN_COST, (req.url?.length ?? 0) + body);
}

/**
 * The bounds of anonymous requests (issue 38: an anonymous flood of registrations evicted every user's state):
 * per client address and in all, counted in fixed windows kept in the store itself — so several instances on one
 * `RedisAuthStore` share them. Anonymous state lives at most one window (registrations never used for a grant,
 * interactions, login states), so what one address holds is at most two windows' worth, and all anonymous
 * state together at most twice `maxBytes`.
 */
export class AnonymousAdmission {
  constructor(
    private readonly store: AuthStore,
    readonly limits: AnonymousLimits,
  ) {}

  async admit(client: string | undefined, cost: number, now = Date.now()): Promise<AnonymousRefusal | undefined> {
    const { window, maxRequestsPerClient, maxBytesPerClient, maxBytes } = this.limits;
    const slot = Math.floor(now / 1000 / window);
    const retryAfter = Math.max(1, Math.ceil((slot + 1) * window - now / 1000));
    if (client !== undefined) {
      const key = `limit:${slot}:${createHash('sha256').update(client).digest('base64url').slice(0, 22)}`;
      const [count, bytes] = await Promise.all([this.increment(`${key}:n`, 1), this.increment(`${key}:b`, cost)]);
      if (count > maxRequestsPerClient || bytes > maxBytesPerClient) {
        return {
          status: 429,
          retryAfter,
          message: `Too many sign-in requests from this address (at most ${maxRequestsPerClient} requests and ${maxBytesPerClient} bytes every ${window} s). Retry after ${retryAfter} s.`,
        };
      }
    }
    const total = await this.increment(`limit:${slot}:all`, cost);
    if (total > maxBytes) {
      return { status: 503, retryAfter, message: `The sign-in service is busy (too many new registrations and sign-ins). Retry after ${retryAfter} s.` };
    }
    return undefined;
  }

  private increment(key: string, amount: number): Promise<number> {
    const ttl = this.limits.window * 2;
    if (this.store.increment) return this.store.increment(key, amount, ttl);
    // A store without increment: read and write (not atomic across instances; the bounds then hold per instance, about).
    return this.store.get(key).then(async (value) => {
      const total = (Number(value) || 0) + amount;
      await this.store.set(key, String(total), ttl);
      return total;
    });
  }
}
