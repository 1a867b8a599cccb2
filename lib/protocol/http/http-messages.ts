/** The response, with `done` called once its body has ended or been cancelled. */
export function whenBodyEnds(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  let finished = false;
  const finish = () => {
    if (!finished) {
      finished = true;
      done();
    }
  };
  const reader = response.body.getReader();
  const stream = new ReadableStream({
    pull: async (controller) => {
      const { done: ended, value } = await reader.read();
      if (ended) {
        finish();
        controller.close();
      } else controller.enqueue(value);
    },
    cancel: async (reason) => {
      finish();
      await reader.cancel(reason);
    },
  });
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
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
