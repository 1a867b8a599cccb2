import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

/** On 2026-07-28 (no requests to the client): how long an answer waits after the progress before it. */
const MODERN_GAP_MS = 100;
/** The most a 2025-era answer waits for the client to answer the flush ping. */
const PING_TIMEOUT_MS = 2_000;

type Message = { method?: unknown; id?: unknown; result?: unknown; error?: unknown };

/**
 * A stdio transport whose answers reach the client after the progress sent before them. The SDK client handles
 * a response at once but a notification one microtask later, and drops progress for a request answered
 * meanwhile ("progress notification for an unknown token"): over a pipe, progress written just before the
 * result arrives in the same read and is lost.
 *
 * On 2025-era connections an answer that follows progress waits for a `ping` round trip: the client answers the
 * ping only after the notifications before it, so their handlers have run. On 2026-07-28 (where the client
 * takes no requests) it waits until the progress is flushed to the pipe, plus 100 ms for the client to read it:
 * a client busier than that can still drop it (docs/context.md).
 */
export function progressFirst(transport: Transport): Transport {
  const send = transport.send.bind(transport);
  let flushed: Promise<unknown> | undefined;
  let legacy = false;
  let pings = 0;
  const waiting = new Map<string, () => void>();

  // Inbound: learn the era from `initialize`, and take the answers to our own pings out of the stream.
  let inner: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => inner && receive,
    set: (handler: Transport['onmessage']) => void (inner = handler),
  });
  const receive: NonNullable<Transport['onmessage']> = (message, extra) => {
    const { method, id } = message as Message;
    if (method === 'initialize') legacy = true;
    if (typeof id === 'string' && method === undefined && waiting.has(id)) {
      waiting.get(id)!();
      waiting.delete(id);
      return;
    }
    inner?.(message, extra);
  };

  const barrier = (): Promise<unknown> => {
    if (!legacy) return new Promise((resolve) => setTimeout(resolve, MODERN_GAP_MS));
    const id = `mcp-reflect-flush-${++pings}`;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve();
      }, PING_TIMEOUT_MS);
      waiting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      send({ jsonrpc: '2.0', id, method: 'ping' } as JSONRPCMessage).catch(() => waiting.get(id)?.());
    });
  };

  transport.send = (message, options) => {
    const { method, id, result, error } = message as Message;
    if (method === 'notifications/progress') {
      const sent = send(message, options);
      flushed = sent.catch(() => undefined);
      return sent;
    }
    if (flushed && id !== undefined && (result !== undefined || error !== undefined)) {
      const after = flushed;
      flushed = undefined;
      return after.then(barrier).then(() => send(message, options));
    }
    return send(message, options);
  };
  return transport;
}
