import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { CacheHint } from '../interfaces';

/**
 * A cache hint checked at bootstrap (SEP-2549, protocol 2026-07-28): `ttlMs` a whole number of milliseconds
 * from 0, `cacheScope` 'public' or 'private'. `where` names its owner ("resource 'config' (App.config)",
 * "McpModule.forRoot({ cacheHints['tools/list'] })"); `example` is the corrected declaration.
 */
export function checkCacheHint(hint: CacheHint | undefined, where: string, example: string): CacheHint | undefined {
  if (hint === undefined) return undefined;
  const fault =
    typeof hint !== 'object' || hint === null
      ? `it is ${JSON.stringify(hint)}, not an object`
      : hint.ttlMs !== undefined && !(typeof hint.ttlMs === 'number' && Number.isSafeInteger(hint.ttlMs) && hint.ttlMs >= 0)
        ? `its ttlMs ${JSON.stringify(hint.ttlMs)} is not a whole number of milliseconds from 0`
        : hint.cacheScope !== undefined && hint.cacheScope !== 'public' && hint.cacheScope !== 'private'
          ? `its cacheScope ${JSON.stringify(hint.cacheScope)} is neither 'public' nor 'private'`
          : undefined;
  if (fault === undefined) {
    const { ttlMs, cacheScope } = hint;
    return { ...(ttlMs !== undefined ? { ttlMs } : {}), ...(cacheScope !== undefined ? { cacheScope } : {}) };
  }
  throw new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot use the cache hint of ${where}: ${fault}.\n` +
      `Fix: give { ttlMs, cacheScope } with ttlMs in milliseconds (0: do not reuse) and cacheScope 'public' (any user may share it) or 'private', e.g. ${example}.`,
  );
}
