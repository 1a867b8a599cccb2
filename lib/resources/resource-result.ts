/** One item of a `resources/read` result (MCP `TextResourceContents` / `BlobResourceContents`). */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };

/**
 * Full control over what a resource read returns: several contents, other URIs, `_meta`.
 *
 * @example
 * return new ResourceResult([{ uri: 'logs://today', mimeType: 'text/plain', text: lines.join('\n') }]);
 */
export class ResourceResult {
  constructor(readonly contents: ResourceContents[]) {}
}

/**
 * What a resource method returned → the contents of the read: string → text (text/plain unless the resource
 * says otherwise), bytes → base64 blob (application/octet-stream), other values → JSON text (application/json).
 * `meta` (an MCP Apps view's `_meta.ui`) goes on each content built here, not on a `ResourceResult`'s.
 */
export function toContents(value: unknown, uri: string, mimeType: string | undefined, meta?: Record<string, unknown>): ResourceContents[] {
  if (value instanceof ResourceResult) return value.contents;
  const extra = meta ? { _meta: meta } : {};
  if (typeof value === 'string') return [{ uri, mimeType: mimeType ?? 'text/plain', text: value, ...extra }];
  if (value instanceof Uint8Array) {
    return [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: Buffer.from(value).toString('base64'), ...extra }];
  }
  if (value === undefined) return [];
  return [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(value), ...extra }];
}
