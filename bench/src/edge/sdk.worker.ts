import { createMcpHandler } from '@modelcontextprotocol/server';
import { mcpServerFactory } from '../systems/mcp-server-tools';

/**
 * (w) The SDK v2's own way onto a Worker: its web-standard handler `createMcpHandler`, stateless, with a fresh
 * McpServer (zod schemas: the bench's `add` and `book`) per request, as the handler makes one. Made on the first
 * request: a Worker's global scope may not start timers or draw random values.
 */
let handler: ReturnType<typeof createMcpHandler> | undefined;

export default {
  fetch(request: Request): Promise<Response> {
    handler ??= createMcpHandler(mcpServerFactory(0), { legacy: 'stateless' });
    return handler.fetch(request);
  },
};
