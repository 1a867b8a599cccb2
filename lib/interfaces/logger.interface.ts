/** Receives the full detail of failures that clients only see masked. Defaults to stderr. */
export interface ServerLogger {
  error(message: string, error?: unknown): void;
  warn(message: string): void;
}
