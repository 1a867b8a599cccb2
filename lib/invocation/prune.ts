/** A copy of `value` without its undefined fields, so list entries carry only the options that were set. */
export function pruneUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
