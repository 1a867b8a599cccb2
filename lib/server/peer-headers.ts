import { randomUUID } from 'node:crypto';

/**
 * Header names random per process, so that no client can send them; made on first use, not at load (Cloudflare
 * Workers allow no random values in the global scope).
 */
let names: { readonly peer: string; readonly client: string } | undefined;
const made = () => (names ??= { peer: `x-mcp-reflect-peer-${randomUUID()}`, client: `x-mcp-reflect-client-${randomUUID()}` });

/** The header through which an adapter hands the endpoint the connection's remote address. */
export const peerHeader = (): string => made().peer;

/**
 * The header through which the endpoint tells the handlers who the client is, as the per-client bounds count it
 * (`clientKey`'s answer, else the remote address): the task bounds count by the same key.
 */
export const clientHeader = (): string => made().client;
