import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { githubUpstream, oidcUpstream } from 'mcp-reflect/auth-server';
import { NotesAuthModule } from '../notes-auth/notes-auth.module';

/**
 * The notes server as its own authorization server (docs/auth.md, "Sign-in for Claude, ChatGPT and IDEs"):
 * users sign in at GitHub (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET) or at any OpenID Connect provider
 * (UPSTREAM_ISSUER, UPSTREAM_CLIENT_ID, UPSTREAM_CLIENT_SECRET), e.g. ./upstream.mjs; with ENTERPRISE_ISSUER (e.g.
 * ./enterprise-idp.mjs), a company's agents too, with ID-JAGs of its IdP (docs/auth.md, "Enterprise sign-in").
 */
async function main(): Promise<void> {
  const env = process.env;
  const upstream = env.GITHUB_CLIENT_ID
    ? githubUpstream({ clientId: env.GITHUB_CLIENT_ID, clientSecret: env.GITHUB_CLIENT_SECRET ?? '' })
    : oidcUpstream({ issuer: env.UPSTREAM_ISSUER ?? 'http://127.0.0.1:4100', clientId: env.UPSTREAM_CLIENT_ID ?? 'mcp-server', clientSecret: env.UPSTREAM_CLIENT_SECRET ?? 'dev-secret' });
  const app = await McpFactory.create(NotesAuthModule);
  app.enableShutdownHooks();
  await app.listen({
    transport: 'http',
    host: env.HOST ?? '127.0.0.1',
    port: Number(env.PORT ?? 3000),
    auth: {
      scopesSupported: ['notes:read', 'notes:write'],
      resourceName: 'Notes',
      // Behind a tunnel or a proxy, the public URL clients use (e.g. https://notes.example.com/mcp).
      ...(env.PUBLIC_URL ? { resource: env.PUBLIC_URL } : {}),
      server: {
        upstream,
        proxy: env.PUBLIC_URL !== undefined,
        // Enterprise sign-in (ENTERPRISE_ISSUER, e.g. ./enterprise-idp.mjs): its users' agents, with ID-JAGs.
        ...(env.ENTERPRISE_ISSUER
          ? { identityAssertion: { issuers: [{ issuer: env.ENTERPRISE_ISSUER }], clients: [{ clientId: env.AGENT_CLIENT_ID ?? 'acme-agent', clientSecret: env.AGENT_CLIENT_SECRET ?? 'local-agent-secret-for-trying-only' }] } }
          : {}),
      },
    },
  });
  console.error(`notes MCP server on ${env.PUBLIC_URL ?? (await app.getUrl())}, signing users in at ${upstream.name ?? upstream.issuer}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
