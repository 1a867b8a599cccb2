export { createServerFactory } from './server-factory';
export { isProtocolError } from './error-mapping';
export { SessionHub } from './session-hub';
export { uriMatcher } from './uri-matcher';
export type { ProtocolApplication, ServerFactory } from './server-factory';
export { serveConnection } from './transports';
export type { ConnectionHandle, Transport } from './transports';
export * from './http';
