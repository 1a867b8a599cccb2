export { createServerFactory, isProtocolError } from './server-factory';
export type { ProtocolApplication, ServerFactory } from './server-factory';
export { serveConnection } from './transports';
export type { ConnectionHandle, Transport } from './transports';
