import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type McpServer, type Server } from '@modelcontextprotocol/server';
import type { Listening } from './system';

type Factory = () => Server | McpServer;

/**
 * How a raw SDK v2 user serves Streamable HTTP: the SDK's per-request handler for stateless serving, and a
 * hand-written session map over WebStandardStreamableHTTPServerTransport for 2025-era sessions.
 */
export async function serveHttp(factory: Factory, stateless: boolean): Promise<Listening> {
  const modern = createMcpHandler(() => factory(), { legacy: stateless ? 'stateless' : 'reject' });
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const fetch = async (request: Request, options?: { parsedBody?: unknown }): Promise<Response> => {
    if (stateless || !(await isLegacyRequest(request.clone()))) return modern.fetch(request, options);
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const transport = sessions.get(id);
      return transport ? transport.handleRequest(request) : new Response('unknown session', { status: 404 });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    await factory().connect(transport);
    return transport.handleRequest(request);
  };
  const handle = toNodeHandler({ fetch });
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      await modern.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
