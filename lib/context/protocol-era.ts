/** The protocol revision that begins the 2026 era: per-request envelopes, no sessions, subscriptions/listen. */
export const MODERN_REVISION = '2026-07-28';

/**
 * Whether a negotiated (or claimed) protocol revision is of the 2026 era or later: the one era check of the
 * library (revisions are dates, so they compare as strings). Undefined (no handshake yet, stateless 2025) is not.
 */
export function isModernRevision(version: string | undefined): boolean {
  return (version ?? '') >= MODERN_REVISION;
}
