export { serveConnection, serveProcessStdio } from './connections';
export { HttpServing } from './http-serving';
export type { ConnectionHandle, Transport } from './connections';
export { InMemoryEventStore } from './http/event-store';
export type { EventStore, InMemoryEventStoreOptions } from './http/event-store';
/** The HTTP transport, loaded on first use (docs/performance.md#import-cost-of-each-entry). */
export const httpTransport = (): typeof import('./http/http-transport') => require('./http/http-transport');
export type { FetchHandler, FetchHandlerOptions, FetchRequestInfo } from './http/fetch-handler';
export type { HttpEndpointSpec } from './http/node-http';
export type { HttpListener, NodeHttpHandler } from './http/node-http';
export type { HttpListenOptions, HttpOptions } from './http/http-options';
export type { ServerCardOptions } from './http/server-card';
export type { SessionRecord, SessionStore } from './http/session-store';
