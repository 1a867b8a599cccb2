import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { NotesAuthModule } from './notes-auth.module';

/**
 * Over HTTP, an OAuth 2.1 resource server: tokens from ISSUER (an authorization server's issuer URL) for
 * this server's URL. Over stdio (`--stdio`), the identity comes from the environment: NOTES_SUBJECT and
 * NOTES_SCOPES (space-separated). See docs/auth.md.
 */
async function main(): Promise<void> {
  const app = await McpFactory.create(NotesAuthModule);
  app.enableShutdownHooks();
  if (process.argv.includes('--stdio')) {
    const scopes = (process.env.NOTES_SCOPES ?? 'notes:read').split(' ').filter(Boolean);
    await app.listen({ transport: 'stdio', auth: { subject: process.env.NOTES_SUBJECT ?? process.env.USER, clientId: 'stdio', scopes, claims: {}, token: '' } });
    console.error('notes-auth MCP server ready on stdio');
    return;
  }
  const issuer = process.env.ISSUER;
  if (!issuer) throw new Error('Set ISSUER to your authorization server (e.g. ISSUER=http://127.0.0.1:4000), or run with --stdio.');
  await app.listen({
    transport: 'http',
    port: Number(process.env.PORT ?? 3000),
    auth: { issuer, scopesSupported: ['notes:read', 'notes:write'], resourceName: 'Notes' },
  });
  console.error(`notes-auth MCP server on ${await app.getUrl()} (tokens from ${issuer})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
