import type { ServerLogger } from '../interfaces';

/** The default server log: stderr only, since stdout carries the protocol on stdio. */
export const stderrLogger: ServerLogger = {
  error(message, error) {
    const detail = error instanceof Error ? (error.stack ?? error.message) : error === undefined ? '' : String(error);
    process.stderr.write(`[mcp-reflect] ${message}${detail ? `\n${detail}` : ''}\n`);
  },
  warn(message) {
    process.stderr.write(`[mcp-reflect] ${message}\n`);
  },
};
