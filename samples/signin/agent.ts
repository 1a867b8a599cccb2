import { Client, CrossAppAccessProvider, discoverAndRequestJwtAuthGrant, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/**
 * An agent of the company (docs/auth.md, "Enterprise sign-in"): it holds a user's ID token from the company's IdP,
 * exchanges it there for an ID-JAG, and presents that at the MCP server's authorization server — no browser.
 * Usage: agent.ts <mcp url> <enterprise IdP url> [user]
 */
async function main(): Promise<void> {
  const [url = 'http://127.0.0.1:3000/mcp', idpUrl = 'http://127.0.0.1:4200', user = 'dana'] = process.argv.slice(2);
  const env = process.env;
  // The company's single sign-on, as the local IdP's development endpoint gives it.
  const { id_token: idToken } = (await (await fetch(`${idpUrl}/dev/id-token`, { method: 'POST', body: JSON.stringify({ user }) })).json()) as { id_token: string };
  const authProvider = new CrossAppAccessProvider({
    clientId: env.AGENT_CLIENT_ID ?? 'acme-agent',
    clientSecret: env.AGENT_CLIENT_SECRET ?? 'local-agent-secret-for-trying-only',
    expectedIssuer: new URL(url).origin,
    assertion: async (ctx) =>
      (
        await discoverAndRequestJwtAuthGrant({
          idpUrl,
          audience: ctx.authorizationServerUrl,
          resource: ctx.resourceUrl,
          idToken,
          clientId: env.IDP_CLIENT_ID ?? 'acme-agent-idp',
          clientSecret: env.IDP_CLIENT_SECRET ?? 'idp-secret',
          scope: ctx.scope,
          fetchFn: ctx.fetchFn,
        })
      ).jwtAuthGrant,
  });
  const client = new Client({ name: 'acme-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
  const who = await client.callTool({ name: 'whoami', arguments: {} });
  console.log(JSON.stringify(who.structuredContent));
  await client.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
