/** MCP log levels (RFC 5424 severities), lowest first. */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Sends log messages to the client (`notifications/message`), honouring the level the client asked for. */
export interface ContextLogger {
  debug(data: unknown, logger?: string): Promise<void>;
  info(data: unknown, logger?: string): Promise<void>;
  notice(data: unknown, logger?: string): Promise<void>;
  warning(data: unknown, logger?: string): Promise<void>;
  error(data: unknown, logger?: string): Promise<void>;
  critical(data: unknown, logger?: string): Promise<void>;
  alert(data: unknown, logger?: string): Promise<void>;
  emergency(data: unknown, logger?: string): Promise<void>;
}
