/**
 * The body of a fetch `Response`, read up to `maxBytes`: the bytes, or undefined when there are more (the rest
 * is cancelled, not read). A `Content-Length` above the bound stops it before anything is read.
 */
export async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}
