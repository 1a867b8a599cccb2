import { randomUUID } from 'node:crypto';

/**
 * The header through which the node adapter hands the endpoint the connection's remote address. Its name is
 * random per process, so no client can send it.
 */
export const PEER_HEADER = `x-mcp-reflect-peer-${randomUUID()}`;

/**
 * The header through which the endpoint tells the handlers who the client is, as the per-client bounds count it
 * (`clientKey`'s answer, else the remote address): the task bounds count by the same key. Random per process.
 */
export const CLIENT_HEADER = `x-mcp-reflect-client-${randomUUID()}`;
