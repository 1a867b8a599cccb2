/**
 * `fetch` for the remote's HTTP transport (the SDK's `StreamableHTTPClientTransport` takes it as its public
 * `fetch` option), with a bound on what one answer may hold: a JSON body, or one event of an event stream
 * (bytes since the last blank line). Past it the rest is not read: the request the POST carried fails at once
 * with a JSON-RPC error naming the bound, handed to the SDK in place of the answer (an error of the body alone
 * would leave the request waiting for its timeout); a body that answers no request errors.
 */
export function boundedFetch(max: number, label: () => string): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const refusal = () => `The ${label()} sent an answer larger than ${max} bytes (maxMessageBytes): it is not read.`;
    const answers = () => requestIds(init?.body).map((id) => JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: refusal() } }));
    const type = (response.headers.get('content-type') ?? '').toLowerCase();
    const keep = { status: response.status, statusText: response.statusText, headers: response.headers };
    if (response.ok && type.startsWith('application/json')) {
      const body = await readBounded(response.body, max);
      if (body) return new Response(body, keep);
      const errors = answers();
      if (errors.length === 0) return new Response(failing(refusal()), keep);
      return new Response(errors.length === 1 ? errors[0] : `[${errors.join(',')}]`, { status: 200, headers: { 'content-type': 'application/json' } });
    }
    const stream = response.ok && type.startsWith('text/event-stream');
    let run = 0;
    let previous = 0;
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (stream) {
            // The bytes after the last blank line (LF, optional CR, LF) are the event still being read.
            const before = (i: number) => (i < 0 ? previous : chunk[i] === 13 ? (i > 0 ? chunk[i - 1] : previous) : chunk[i]);
            let boundary = -1;
            for (let lf = chunk.indexOf(10); lf !== -1; lf = chunk.indexOf(10, lf + 1)) if (before(lf - 1) === 10) boundary = lf;
            run = boundary === -1 ? run + chunk.length : chunk.length - boundary - 1;
            if (chunk.length > 0) previous = before(chunk.length - 1);
          } else run += chunk.length;
          if (run <= max) return controller.enqueue(chunk);
          const errors = stream ? answers() : [];
          if (errors.length === 0) return controller.error(new Error(refusal()));
          // The event begun is ended under a type the SDK skips, then the request's error is the event that answers it.
          controller.enqueue(new TextEncoder().encode(`\nevent: discarded\n\n${errors.map((error) => `data: ${error}\n\n`).join('')}`));
          controller.terminate();
        },
      }),
    );
    return new Response(bounded, keep);
  };
}

/** The body, or undefined past `max` bytes (the rest is not read). */
async function readBounded(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

function failing(message: string): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.error(new Error(message)) });
}

/** The ids of the JSON-RPC requests a POST carried (its body is the SDK's own JSON). */
function requestIds(body: unknown): (string | number)[] {
  if (typeof body !== 'string') return [];
  try {
    const messages = [JSON.parse(body) as unknown].flat() as { id?: unknown; method?: unknown }[];
    return messages.filter((m) => typeof m?.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')).map((m) => m.id as string | number);
  } catch {
    return [];
  }
}
