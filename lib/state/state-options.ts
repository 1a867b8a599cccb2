import { InMemoryStateStore } from './memory-state-store';
import { wholeOption } from '../errors';
import type { StateStore } from './state-store';

/** Options of `McpModule.forRoot({ state })`: where `ctx.state` lives, and for how long. */
export interface StateOptions {
  /** Default: an `InMemoryStateStore` with its default bounds. `RedisStateStore` shares state between instances. */
  store?: StateStore;
  /** How long a value is kept after it was set, unless `ctx.state.set(key, value, { ttlMs })` says (ms). Default 86,400,000 (1 day). */
  ttlMs?: number;
  /** The longest TTL `ctx.state.set` may ask for (ms). Default 2,592,000,000 (30 days). */
  maxTtlMs?: number;
}

/** The options with their defaults, checked once at bootstrap. */
export interface ResolvedStateOptions {
  readonly store: StateStore;
  readonly ttlMs: number;
  readonly maxTtlMs: number;
}

/** Fills in the defaults; a bad number fails the bootstrap with the fix. */
export function resolveStateOptions(options: StateOptions = {}): ResolvedStateOptions {
  const option = (name: 'ttlMs' | 'maxTtlMs', fallback: number) =>
    wholeOption((value) => `McpModule.forRoot({ state: { ${name}: ${value} } })`, options[name], fallback, 'milliseconds');
  const maxTtlMs = option('maxTtlMs', 30 * 86_400_000);
  return { store: options.store ?? new InMemoryStateStore(), ttlMs: Math.min(option('ttlMs', 86_400_000), maxTtlMs), maxTtlMs };
}
