export { Context } from './context';
export type { ContextLogger, LogLevel, RequestChannel } from './context';
