import type { Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Connection, ServerFactory } from './server-factory';

export type { Transport };

/** A live connection the application can close. */
export interface ConnectionHandle {
  close(): Promise<void>;
}

/**
 * Serves one connection from the factory. The SDK's stdio entry owns the era decision: a 2025-era
 * `initialize` pins a 2025 instance, a 2026-07-28 `server/discover` pins a modern one, so one user
 * codebase serves both eras. Without a transport it uses the process's stdin/stdout.
 */
export function serveConnection(
  factory: ServerFactory,
  onerror: (error: Error) => void,
  transport?: Transport,
  connection?: Connection,
): ConnectionHandle {
  // Every server of the connection (the SDK may build one more for a `server/discover` probe) gets its identity.
  return serveStdio(() => factory(connection), { onerror, ...(transport ? { transport } : {}) });
}
