import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { BootstrapError, BootstrapErrorCode } from '../errors';

/** On 2026-07-28 (no requests to the client): how long an answer waits after the progress before it, by default. */
export const PROGRESS_GAP_MS = 100;
/** The most a 2025-era answer waits for the client to answer the flush ping. */
const PING_TIMEOUT_MS = 2_000;

type Message = { method?: unknown; id?: unknown; result?: unknown; error?: unknown };

/**
 * `progressGapMs` of the stdio listen and connect options, checked before anything is served: a whole number of
 * milliseconds, 0 or more (default 100).
 */
export function progressGapOf(value: unknown): number {
  const resolved = value ?? PROGRESS_GAP_MS;
  if (typeof resolved === 'number' && Number.isSafeInteger(resolved) && resolved >= 0) return resolved;
  throw new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot serve stdio with { progressGapMs: ${JSON.stringify(resolved)} }: it must be a whole number of milliseconds, 0 or more.\n` +
      `Fix: give e.g. ${PROGRESS_GAP_MS} (the default), 0 to send answers at once, or leave it out.`,
  );
}

/**
 * A stdio transport whose answers reach the client after the progress sent before them. The official TypeScript
 * SDK client (2.4.0, `Protocol._onnotification`/`_onresponse`) handles a response at once but a notification one
 * microtask later, and drops progress for a request answered meanwhile ("Received a progress notification for an
 * unknown token"): over a pipe, progress written just before the result arrives in the same read and is lost.
 * Reported as modelcontextprotocol/typescript-sdk#2580 (open); pull requests #2378 (closed unmerged: dispatch
 * notifications in arrival order) and #2586 (open: ignore late progress) address it.
 * spec/server/sdk-contract.spec.ts shows whether the pinned SDK client still drops it, and says when this
 * workaround is no longer needed.
 *
 * On 2025-era connections an answer that follows progress waits for a `ping` round trip: the client answers the
 * ping only after the notifications before it, so their handlers have run. On 2026-07-28 (where the client
 * takes no requests) it waits until the progress is flushed to the pipe, plus `gapMs` (100 ms by default) for the
 * client to read it: a client busier than that can still drop it (docs/context.md). A `gapMs` of 0 turns the
 * workaround off on both (the transport is returned as it is).
 */
export function progressFirst(transport: Transport, gapMs = PROGRESS_GAP_MS): Transport {
  if (gapMs === 0) return transport;
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
    if (!legacy) return new Promise((resolve) => setTimeout(resolve, gapMs));
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
