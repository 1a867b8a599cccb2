import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** What the client saw. */
export interface ClientRun {
  readonly tools: string[];
  readonly whoami: unknown;
  readonly added: unknown;
}

/**
 * An MCP client that starts without a token (machine to machine: OAuth client credentials). The SDK's
 * ClientCredentialsProvider reads the server's 401 challenge, fetches the protected resource metadata it
 * points to (RFC 9728), then the authorization server's metadata (RFC 8414), and asks the token endpoint for a
 * token for this server (`resource`, RFC 8707) with the scopes the challenge names. A later 403
 * insufficient_scope makes it ask again for the missing scopes and retry (step-up).
 */
export async function run(url: string, credentials: { clientId: string; clientSecret: string; issuer: string }): Promise<ClientRun> {
  const authProvider = new ClientCredentialsProvider({
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    // The secret goes to this authorization server only, whatever the MCP server advertises.
    expectedIssuer: credentials.issuer,
  });
  const client = new Client({ name: 'notes-auth-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const whoami = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent;
    const added = (await client.callTool({ name: 'addNote', arguments: { text: 'written by a machine client' } })).structuredContent;
    return { tools, whoami, added };
  } finally {
    await client.close();
  }
}

if (require.main === module) {
  run(process.env.MCP_URL ?? 'http://127.0.0.1:3000/mcp', {
    clientId: process.env.CLIENT_ID ?? 'notes-client',
    clientSecret: process.env.CLIENT_SECRET ?? 'notes-client-secret',
    issuer: process.env.ISSUER ?? 'http://127.0.0.1:4000',
  })
    .then((result) => console.log(JSON.stringify(result, null, 2)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
