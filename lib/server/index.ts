export { createServerFactory } from './server-factory';
export { isProtocolError } from './error-mapping';
export { ServerHub } from './server-hub';
export { uriMatcher } from './uri-matcher';
export type { ProtocolApplication, ServerFactory } from './server-factory';
export { attachBus } from './change-bus';
export { authInfoOf } from './auth-info';
export type { ChangeBus, ChangeMessage } from './change-bus';
