import type { CanActivate, ExecutionContext } from '../interfaces';
import { boundedKey, callerOf, checkExactlyOne, checkNumber, invalidOption, type CallerScope } from './caller-key';
import { LRUCache } from 'lru-cache';
import { RateLimitError } from './rate-limit.error';

/** Options of {@link RateLimitGuard}: a bucket of `capacity` tokens per key, refilled continuously. */
export interface RateLimitOptions {
  /** Calls a caller may make in a burst (the bucket's size; it starts full). */
  capacity: number;
  /** Tokens added per second (give this or `refillPerMinute`). */
  refillPerSecond?: number;
  /** Tokens added per minute (give this or `refillPerSecond`). */
  refillPerMinute?: number;
  /**
   * Whose bucket a call takes from (default `'session'`): `'session'` (stdio and in-memory connections are one
   * caller; stateless HTTP callers share one bucket), `'client'` (the client's self-declared name), `'subject'`
   * (the verified auth's `subject`, else its `clientId`, else the session), or a function of the context.
   */
  key?: CallerScope | ((context: ExecutionContext) => string);
  /** One bucket per caller and component instead of one per caller (default false). */
  perComponent?: boolean;
  /** Buckets kept at most; the least recently used is forgotten first (default 10 000). */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  updated: number;
}

const EXAMPLE = `{ capacity: 10, refillPerMinute: 30 }`;

/**
 * Limits how often a caller may use components, with a token bucket per caller (and per component, with
 * `perComponent`). A call takes one token; an empty bucket answers with a {@link RateLimitError} that says
 * when to try again. Lists never take tokens: the guard lets every component show, and `@ResourceList()`
 * methods (which serve resources/list) are not counted.
 *
 * @example
 * @UseGuards(new RateLimitGuard({ capacity: 5, refillPerMinute: 10, key: 'subject' }))
 * @Tool() forecast(@Param() city: string) { … }
 */
export class RateLimitGuard implements CanActivate {
  private readonly capacity: number;
  /** Tokens per millisecond. */
  private readonly rate: number;
  private readonly key: CallerScope | ((context: ExecutionContext) => string);
  private readonly perComponent: boolean;
  /**
   * One bucket per key, the least recently used forgotten first; a bucket left alone until it is full again is
   * forgotten too (its TTL): a new one starts full, so nothing changes for its caller.
   */
  private readonly buckets: LRUCache<string, Bucket>;

  constructor(given: RateLimitOptions) {
    const owner = 'RateLimitGuard';
    const options = given ?? ({} as RateLimitOptions);
    this.capacity = checkNumber(owner, 'capacity', options.capacity, { min: 1, integer: true }, EXAMPLE);
    const { refillPerSecond, refillPerMinute } = options;
    checkExactlyOne(owner, 'refillPerSecond', refillPerSecond, 'refillPerMinute', refillPerMinute, EXAMPLE);
    this.rate =
      refillPerSecond !== undefined
        ? checkNumber(owner, 'refillPerSecond', refillPerSecond, { min: 0, exclusive: true }, EXAMPLE) / 1000
        : checkNumber(owner, 'refillPerMinute', refillPerMinute, { min: 0, exclusive: true }, EXAMPLE) / 60_000;
    const key = options.key ?? 'session';
    if (typeof key !== 'function' && key !== 'session' && key !== 'client' && key !== 'subject') {
      const rule = `'session', 'client', 'subject' or a function of the context`;
      invalidOption(owner, 'key', key, rule, `{ capacity: 10, refillPerMinute: 30, key: 'subject' }`);
    }
    this.key = key;
    this.perComponent = options.perComponent ?? false;
    const example = `{ capacity: 10, refillPerMinute: 30, maxKeys: 10000 }`;
    const max = checkNumber(owner, 'maxKeys', options.maxKeys ?? 10_000, { min: 1, integer: true }, example);
    const refilled = Math.ceil(this.capacity / this.rate); // ms from empty to full
    // The buckets' clock (read each time), from the epoch: lru-cache takes an entry that starts at 0 for one that never expires.
    const perf = { now: () => performance.timeOrigin + performance.now() };
    this.buckets = new LRUCache({ max, ...(Number.isSafeInteger(refilled) ? { ttl: Math.max(1, refilled), perf, ttlResolution: 0 } : {}) });
  }

  canActivate(context: ExecutionContext): boolean {
    // Lists never take tokens: neither the checks of tools/list & co nor the @ResourceList() methods of resources/list.
    if (context.phase === 'list' || context.kind === 'resource-list') return true;
    const caller = typeof this.key === 'function' ? String(this.key(context)) : (callerOf(context, this.key) ?? 'anonymous');
    const key = boundedKey(this.perComponent ? `${context.kind}\u0000${context.name}\u0000${caller}` : caller);
    const now = performance.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, updated: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.updated) * this.rate);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return true;
    }
    throw new RateLimitError(context.kind, context.name, Math.ceil((1 - bucket.tokens) / this.rate));
  }
}
