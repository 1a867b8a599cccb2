/** `forRoot({ includeTags, excludeTags })`: which tagged components the server exposes. */
export interface TagFilter {
  /** When given, only components with at least one of these tags are exposed. */
  readonly includeTags?: readonly string[];
  /** Components with any of these tags are never exposed (wins over includeTags). */
  readonly excludeTags?: readonly string[];
}

export function passesTags(tags: readonly string[] | undefined, filter: TagFilter): boolean {
  const own = tags ?? [];
  if (filter.excludeTags?.some((t) => own.includes(t))) return false;
  if (filter.includeTags && filter.includeTags.length > 0) return filter.includeTags.some((t) => own.includes(t));
  return true;
}
