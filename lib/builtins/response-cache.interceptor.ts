import type { CallHandler, ExecutionContext, McpInterceptor } from '../interfaces';
import { getToolOptions } from '../metadata';
import { boundedKey, callerOf, checkNumber, invalidOption, stableJson } from './caller-key';
import { LRUCache } from 'lru-cache';
import { isErrorResult } from './request-outcome';

/** Options of {@link ResponseCacheInterceptor}. */
export interface ResponseCacheOptions {
  /** How long an answer is reused, in milliseconds. */
  ttlMs: number;
  /** Answers kept at most; the least recently used is forgotten first (default 1000). */
  maxEntries?: number;
  /**
   * Bytes of answers (as JSON) kept at most, all callers together; the least recently used go first, and an
   * answer larger than a tenth of this is not kept (default 16 MiB).
   */
  maxBytes?: number;
  /**
   * Keep answers apart per caller (default false: every caller shares them). `true` or `'session'`: per
   * transport session (stdio and in-memory connections are one caller); `'subject'`: per verified auth
   * subject (else client id, else session). A caller that cannot be told apart (stateless HTTP without auth)
   * is never served from the cache.
   */
  perCaller?: boolean | 'session' | 'subject';
  /**
   * What identifies one answer of a component (default: its arguments as sorted-keys JSON). The component's
   * kind and name are always part of the key, and `perCaller` adds the caller. Return undefined to skip the
   * cache for this call.
   */
  key?: (context: ExecutionContext) => string | undefined;
}

interface Entry {
  readonly value: unknown;
  /** The answer's size as JSON, plus its key. */
  readonly bytes: number;
}

const EXAMPLE = '{ ttlMs: 60_000 }';

/**
 * Reuses the answers of read-only tools (`@Tool({ annotations: { readOnlyHint: true } })`), resources and
 * resource templates for `ttlMs`, keyed by component and arguments (and caller, with `perCaller`). Other
 * components pass through untouched, failures (thrown, or an `isError` tool result) are never kept, and at
 * most `maxEntries` answers are. What is cached is the method's value before conversion, shared between
 * callers: a cached method must not hand out objects it mutates later.
 *
 * @example
 * @UseInterceptors(new ResponseCacheInterceptor({ ttlMs: 60_000, perCaller: 'subject' }))
 * @Tool({ annotations: { readOnlyHint: true } }) forecast(@Param() city: string) { … }
 */
export class ResponseCacheInterceptor implements McpInterceptor {
  private readonly perCaller: false | 'session' | 'subject';
  private readonly key?: (context: ExecutionContext) => string | undefined;
  /** Answers for `ttlMs` each, bounded in entries and bytes. */
  private readonly entries: LRUCache<string, Entry>;
  private readonly maxBytes: number;
  /** Whether a component method's answers may be cached, decided once per method. */
  private readonly readOnly = new WeakMap<Function, boolean>();

  constructor(given: ResponseCacheOptions) {
    const owner = 'ResponseCacheInterceptor';
    const options = given ?? ({} as ResponseCacheOptions);
    const ttl = checkNumber(owner, 'ttlMs', options.ttlMs, { min: 0, exclusive: true }, EXAMPLE);
    const maxEntries = checkNumber(owner, 'maxEntries', options.maxEntries ?? 1000, { min: 1, integer: true }, '{ ttlMs: 60_000, maxEntries: 1000 }');
    this.maxBytes = checkNumber(owner, 'maxBytes', options.maxBytes ?? 16 * 1024 * 1024, { min: 1, integer: true }, '{ ttlMs: 60_000, maxBytes: 16_777_216 }');
    this.entries = new LRUCache({
      max: maxEntries,
      maxSize: this.maxBytes,
      sizeCalculation: (entry) => entry.bytes,
      ttl: Math.max(1, Math.round(ttl)),
      // The process's clock when the answer is looked up (read each time, to the millisecond), from the epoch:
      // lru-cache takes an entry that starts at 0 for one that never expires.
      perf: { now: () => performance.timeOrigin + performance.now() },
      ttlResolution: 0,
    });
    const perCaller = options.perCaller ?? false;
    if (perCaller !== false && perCaller !== true && perCaller !== 'session' && perCaller !== 'subject') {
      invalidOption(owner, 'perCaller', perCaller, `true, false, 'session' or 'subject'`, `{ ttlMs: 60_000, perCaller: 'session' }`);
    }
    this.perCaller = perCaller === true ? 'session' : perCaller;
    if (options.key !== undefined && typeof options.key !== 'function') {
      invalidOption(owner, 'key', options.key, 'a function of the context', '{ ttlMs: 60_000, key: (context) => context.name }');
    }
    this.key = options.key;
  }

  /** Answers kept now (expired ones included until they are looked up or pushed out). */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes of the answers kept now. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  /** Forgets every answer (after the data behind them changed, say). */
  clear(): void {
    this.entries.clear();
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<unknown> {
    const key = this.cacheable(context) ? this.keyOf(context) : undefined;
    if (key === undefined) return next.handle();
    // An expired answer is not found (and is forgotten).
    const hit = this.entries.get(key);
    if (hit) return hit.value;
    const value = await next.handle();
    if (isErrorResult(value)) return value;
    // Weighed once, when kept: a client choosing arguments must not fill the process with large answers.
    const bytes = sizeOf(value) + key.length * 2;
    if (bytes <= this.maxBytes / 10) this.entries.set(key, { value, bytes });
    return value;
  }

  private cacheable(context: ExecutionContext): boolean {
    if (context.kind === 'resource' || context.kind === 'resource-template') return true;
    if (context.kind !== 'tool') return false;
    const handler = context.getHandler();
    let known = this.readOnly.get(handler);
    if (known === undefined) {
      known = getToolOptions(context.getClass(), handler.name)?.annotations?.readOnlyHint === true;
      this.readOnly.set(handler, known);
    }
    return known;
  }

  private keyOf(context: ExecutionContext): string | undefined {
    const answer = this.key ? this.key(context) : stableJson(context.switchToRpc().getData());
    if (answer === undefined) return undefined;
    let caller = '';
    if (this.perCaller) {
      const who = callerOf(context, this.perCaller);
      if (who === undefined) return undefined; // never share answers between callers we cannot tell apart
      caller = who;
    }
    return boundedKey(`${context.kind}\u0000${context.name}\u0000${caller}\u0000${String(answer)}`);
  }
}

/** An answer's size as UTF-8 JSON; bytes and buffers by their length; Infinity when it cannot be measured. */
function sizeOf(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (value instanceof Uint8Array) return value.byteLength;
  try {
    const json = JSON.stringify(value, (_key, inner: unknown) => (inner instanceof Uint8Array ? `${inner.byteLength}` : inner));
    return json === undefined ? 0 : Buffer.byteLength(json);
  } catch {
    return Infinity; // a cycle, a BigInt: not kept
  }
}
