import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { bookText } from '../system';

/** SDK v2 `McpServer` with zod schemas: the SDK's own high-level API. */
export function mcpServerFactory(extra: number): () => McpServer {
  const addShape = z.object({ a: z.number(), b: z.number() });
  const bookShape = z.object({
    title: z.string().min(1).max(100),
    copies: z.number().int().min(1).max(10),
    genre: z.enum(['fiction', 'science', 'history']),
    note: z.string().optional(),
    authors: z.array(z.object({ first: z.string(), last: z.string(), born: z.number().int() })),
  });
  const extraShape = z.object({ n: z.number() });
  return () => {
    const server = new McpServer({ name: 'mcp-server', version: '1.0.0' });
    server.registerTool('add', { description: 'Add two numbers', inputSchema: addShape }, async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    server.registerTool('book', { description: 'Register a book', inputSchema: bookShape }, async (input) => ({
      content: [{ type: 'text', text: bookText(input) }],
    }));
    for (let i = 0; i < extra; i++) {
      server.registerTool(`tool_${i}`, { description: `Trivial tool ${i}`, inputSchema: extraShape }, async ({ n }) => ({
        content: [{ type: 'text', text: String(n) }],
      }));
    }
    return server;
  };
}
