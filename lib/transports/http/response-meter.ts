import type { PendingBytes } from './http-limits';

/** Most bytes handed to the reader at once: a large answer goes out in slices, as the reader takes them. */
const SLICE = 64 * 1024;

/** Statuses whose response has no body (a Response with one cannot be made). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** How an answer's body is handed to whoever writes it to the client. */
export interface MeterOptions {
  /**
   * The answer to a call (a POST): when its reader goes away, it is still read to its end and dropped (a call
   * holds its place until it answered); any other stream is cancelled at once.
   */
  readonly call: boolean;
  /**
   * A reader that takes nothing this long while a slice waits for it fails the body, which ends its connection
   * (the fetch handler's runtime writes the body; the Node adapter times its own writes).
   */
  readonly stallMs?: number;
}

/**
 * The answer with its body handed out in slices of at most 64 KiB, one each time the reader asks: the bytes
 * read from the answer and not yet taken by the reader are counted on `pending` (its client's unread answers,
 * which bound new calls), and given back when the body ends, fails or is cancelled. The one accounting of
 * unread answers, for both faces of the endpoint: the Node adapter reads it as the socket drains, a runtime
 * behind the fetch handler as it writes.
 */
export function meterBody(response: Response, pending: PendingBytes, options: MeterOptions): Response {
  if (!response.body || NULL_BODY.has(response.status)) {
    pending.release();
    return response;
  }
  const source = response.body.getReader();
  let chunk: Uint8Array | undefined;
  let offset = 0;
  let finished = false;
  let stall: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    clearTimeout(stall);
    if (finished) return false;
    finished = true;
    pending.release();
    return true;
  };
  // The reader is gone (or stalled): what is held goes; a call's answer is read on to its end, and dropped.
  const abandon = (reason?: unknown) => {
    if (!finish()) return;
    chunk = undefined;
    if (options.call) void drain(source);
    else void source.cancel(reason).catch(() => undefined);
  };
  const body = new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        clearTimeout(stall);
        if (!chunk || offset >= chunk.byteLength) {
          const next = await source.read().catch(() => undefined);
          if (finished) return;
          if (!next || next.done || !next.value) {
            // The end, or the answer's stream failed mid-way: what was sent is ended.
            finish();
            controller.close();
            return;
          }
          chunk = next.value;
          offset = 0;
          pending.add(next.value.byteLength);
        }
        const current = chunk;
        if (!current) return; // abandoned meanwhile
        const slice = offset === 0 && current.byteLength <= SLICE ? current : current.subarray(offset, offset + SLICE);
        offset += slice.byteLength;
        pending.sub(slice.byteLength);
        controller.enqueue(slice);
        if (options.stallMs !== undefined) {
          stall = setTimeout(() => {
            abandon(new Error('stalled'));
            controller.error(new Error(`The client read nothing for ${options.stallMs} ms.`));
          }, options.stallMs);
          (stall as { unref?: () => void }).unref?.();
        }
      },
      cancel: (reason) => abandon(reason),
    },
    // Nothing is read ahead of the reader: what it has not asked for stays in the answer, counted.
    { highWaterMark: 0 },
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Reads a stream to its end, keeping nothing. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    for (;;) if ((await reader.read()).done) return;
  } catch {
    // it failed: nothing more comes
  }
}
