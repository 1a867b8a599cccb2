/**
 * The response, with `done` called once its body has ended or been cancelled. With `idleMs`, a stream that
 * carries no event (keep-alive comments aside) for that long is ended: a held `subscriptions/listen` stream
 * does not keep its place for ever; its client listens again. `onEnd` is handed the function that ends the
 * stream so (the fair share of a full table of listen streams).
 */
export function watchBody(response: Response, done: () => void, idleMs?: number, onEnd?: (end: () => void) => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  let finished = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    clearTimeout(idle);
    if (!finished) {
      finished = true;
      done();
    }
  };
  const reader = response.body.getReader();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const expire = () => {
    finish();
    void reader.cancel(new Error('idle')).catch(() => undefined);
    try {
      controller.close();
    } catch {
      // already closed
    }
  };
  const arm = () => {
    if (idleMs === undefined) return;
    clearTimeout(idle);
    idle = setTimeout(expire, idleMs);
    idle.unref?.();
  };
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
      arm();
    },
    pull: async (c) => {
      const { done: ended, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (finished) return;
      if (ended) {
        finish();
        c.close();
        return;
      }
      if (value.byteLength > 0 && value[0] !== 0x3a) arm(); // an event, not a `: keepalive` comment
      c.enqueue(value);
    },
    cancel: async (reason) => {
      finish();
      await reader.cancel(reason).catch(() => undefined);
    },
  });
  onEnd?.(expire);
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** A refusal sent before the request's body was read: the connection closes after it (the body is in the way). */
export function unread(response: Response): Response {
  try {
    response.headers.set('connection', 'close');
    return response;
  } catch {
    // immutable headers (a fetched response): a copy carries it
    const headers = new Headers(response.headers);
    headers.set('connection', 'close');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** A JSON-RPC error body with an HTTP status; never a stack trace. */
export function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A JSON-RPC error answering the request `id`, with `data`: the refusals made before the request is dispatched. */
export function jsonRpcRefusal(status: number, id: string | number | null, code: number, message: string, data?: unknown): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
