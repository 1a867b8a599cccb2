import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { progressFirst, progressGapOf } from './progress-first';
import type { Connection, ServerFactory } from '../server/server-factory';

export type { Transport };

/** A live connection the application can close. */
export interface ConnectionHandle {
  close(): Promise<void>;
}

/** How a connection is served: the caller's identity, and the stdio options of `listen()` and `connect()`. */
export interface ServeOptions {
  readonly connection?: Connection;
  /** Whether other writes to stdout go to stderr while serving the process's stdio (default true). */
  readonly redirectStdout?: boolean;
  /** How long an answer on stdio waits after the progress before it (default 100; 0 turns the wait off). */
  readonly progressGapMs?: number;
}

/**
 * Serves the process's stdin/stdout. With `redirectStdout` (the default), whatever else writes to stdout while
 * serving (a `console.log` in a tool, a chatty library) goes to stderr: on stdout it would corrupt the protocol
 * stream. Only the protocol's own messages reach stdout. Closing the connection restores stdout.
 */
export function serveProcessStdio(factory: ServerFactory, onerror: (error: Error) => void, options: ServeOptions = {}): ConnectionHandle {
  progressGapOf(options.progressGapMs); // refused before stdout is touched
  if (options.redirectStdout === false) return serveConnection(factory, onerror, undefined, options);
  const stdout = process.stdout;
  const write = stdout.write;
  // The protocol's own writes go to the real stdout; each completes when stdout took it (back-pressure holds).
  const protocol = new Writable({
    write: (chunk, encoding, callback) => void write.call(stdout, chunk, encoding, callback),
  });
  stdout.write = ((chunk: unknown, ...rest: unknown[]) => (process.stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;
  const handle = serveConnection(factory, onerror, new StdioServerTransport(process.stdin, protocol), options);
  return {
    close: async () => {
      try {
        await handle.close();
      } finally {
        if (stdout.write !== write) stdout.write = write;
      }
    },
  };
}

/**
 * Serves one connection from the factory. The SDK's stdio entry owns the era decision: a 2025-era
 * `initialize` pins a 2025 instance, a 2026-07-28 `server/discover` pins a modern one, so one user
 * codebase serves both eras. Without a transport it uses the process's stdin/stdout.
 */
export function serveConnection(factory: ServerFactory, onerror: (error: Error) => void, transport?: Transport, options: ServeOptions = {}): ConnectionHandle {
  const gapMs = progressGapOf(options.progressGapMs);
  // Every server of the connection (the SDK may build one more for a `server/discover` probe) gets its identity.
  // A stdio transport (the process's, or one you give) lets progress through before each answer.
  const served = transport === undefined ? progressFirst(new StdioServerTransport(), gapMs) : transport instanceof StdioServerTransport ? progressFirst(transport, gapMs) : transport;
  // One id per connection: the owner of `ctx.state` when the caller has no identity (docs/state.md).
  // A stdio transport (the process's, or one you give) is named so for telemetry (`ctx.transport`); others are not.
  const stdio = transport === undefined || transport instanceof StdioServerTransport;
  const own = { ...options.connection, id: randomUUID(), ...(stdio ? { transport: 'stdio' as const } : {}) };
  return serveStdio(() => factory.create(own), { onerror, transport: served });
}
