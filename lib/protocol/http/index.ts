export { HttpEndpoint } from './http-endpoint';
export { InMemoryEventStore } from './event-store';
export type { InMemoryEventStoreOptions } from './event-store';
export type { EventStore } from './event-store';
export { createNodeHandler, listenHttp } from './node-http';
export type { HttpListener, NodeHttpHandler } from './node-http';
export type { HttpListenOptions, HttpOptions } from './http-options';
export type { SessionRecord, SessionStore } from './session-store';
