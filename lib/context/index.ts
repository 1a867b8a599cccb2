export { Context } from './context';
export type { ClientInfo, ContextLogger, LogLevel, RequestChannel } from './context';
