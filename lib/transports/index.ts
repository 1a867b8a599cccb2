export { serveConnection, serveProcessStdio } from './connections';
export type { ConnectionHandle, Transport } from './connections';
export { HttpEndpoint } from './http/http-endpoint';
export { InMemoryEventStore } from './http/event-store';
export type { EventStore, InMemoryEventStoreOptions } from './http/event-store';
export { createNodeHandler, listenHttp } from './http/node-http';
export type { HttpListener, NodeHttpHandler } from './http/node-http';
export type { HttpListenOptions, HttpOptions } from './http/http-options';
export type { SessionRecord, SessionStore } from './http/session-store';
