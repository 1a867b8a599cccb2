let never: AbortSignal | undefined;

/**
 * A signal that is never aborted, made on first use: a Workers runtime refuses `new AbortController()` (and timers,
 * random values) in the global scope ("Disallowed operation called within global scope"), so no module of
 * mcp-reflect makes one when it is imported.
 */
export function neverAborted(): AbortSignal {
  return (never ??= new AbortController().signal);
}
