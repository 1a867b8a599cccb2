import type { ClientEnd } from './system';

/**
 * tools/list as a bare JSON-RPC client asks it: the request is sent on the client's end of the in-memory pair
 * and its answer serialized, as a wire transport would (what a server pays to answer), but not validated by
 * the SDK client. The SDK client's zod validation of a large list is the client's cost, not the framework's, and
 * its speed depends on V8's optimization decisions in each process: the same mcp-reflect server answered 600
 * or 4,000 lists of 500 tools per second through it depending on which unrelated modules the process had
 * loaded (docs/performance.md). Every other message goes on to the SDK client.
 */
export function rawLister(transport: ClientEnd): () => Promise<string> {
  const waiting = new Map<string, (text: string) => void>();
  const sdk = transport.onmessage;
  transport.onmessage = (message: { id?: unknown }, extra?: unknown) => {
    const answer = typeof message.id === 'string' ? waiting.get(message.id) : undefined;
    if (!answer) return sdk?.(message, extra);
    waiting.delete(message.id as string);
    answer(JSON.stringify(message));
  };
  let next = 0;
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = `list-${next++}`;
      waiting.set(id, resolve);
      transport.send({ jsonrpc: '2.0', id, method: 'tools/list', params: {} }).catch(reject);
    });
}
