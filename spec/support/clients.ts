import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { McpApplication } from 'mcp-reflect';

/** A real SDK client connected in memory to `app` under the client name `name`; closing it leaves the app open. */
export async function connectAs(app: McpApplication, name: string, protocolVersion?: '2026-07-28'): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await app.connect(serverTransport);
  const client = new Client(
    { name, version: '1.0.0' },
    { capabilities: {}, ...(protocolVersion ? { versionNegotiation: { mode: { pin: protocolVersion } } } : {}) },
  );
  await client.connect(clientTransport);
  return client;
}

/** The text of the first content block of a tool result, and whether it is an error. */
export function answer(result: { content?: unknown; isError?: boolean }): { text: string | undefined; isError: boolean } {
  return { text: (result.content as { text?: string }[] | undefined)?.[0]?.text, isError: result.isError ?? false };
}
