import 'reflect-metadata';
import { McpFactory, McpModule, Module } from 'mcp-reflect';

@Module({ imports: [McpModule.forRoot({ name: 'options', version: '1.0.0' })] })
class OptionsModule {}

/** Every mistake in `auth.server` a user can make stops listen() with the cause and the fix. */
describe('auth.server options', () => {
  const upstream = { issuer: 'https://accounts.example.com', clientId: 'mcp', clientSecret: 's' };
  const refused = async (server: Record<string, unknown>) => {
    const app = await McpFactory.create(OptionsModule);
    try {
      await app.listen({ transport: 'http', port: 0, auth: { server: server as never } });
      throw new Error('listen() did not refuse');
    } catch (error) {
      return { code: (error as { code?: string }).code, message: (error as Error).message };
    } finally {
      await app.close();
    }
  };

  it.each([
    [
      'no upstream',
      {},
      "Cannot serve with these auth options: auth.server.upstream must name the provider users sign in at (got issuer undefined).\nFix: auth: { server: { upstream: githubUpstream({ clientId, clientSecret }) } }, or oidcUpstream({ issuer: 'https://accounts.example.com', clientId, clientSecret }) from mcp-reflect/auth-server.",
    ],
    [
      'no client id',
      { upstream: { issuer: 'https://accounts.example.com' } },
      'Cannot serve with these auth options: auth.server.upstream.clientId is missing.\nFix: register this server as a client at the provider (redirect URI <origin>/oauth/callback) and give its client id and secret.',
    ],
    [
      'an upstream token key of the wrong size',
      { upstream, keys: { upstreamTokens: 'c2hvcnQ=' } },
      `Cannot serve with these auth options: keys.upstreamTokens must be 32 bytes in base64 (got 5 bytes).\nFix: generate one: node -e "console.log(require('crypto').randomBytes(32).toString('base64'))"`,
    ],
    [
      'a public signing key',
      { upstream, keys: { signing: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k', alg: 'ES256' }] } },
      "Cannot serve with these auth options: keys.signing[0] must be a private JWK with kid and alg (e.g. ES256).\nFix: export one with jose: { ...(await exportJWK(privateKey)), kid: 'key-1', alg: 'ES256', use: 'sig' }.",
    ],
  ])('%s', async (_what, server, message) => {
    expect(await refused(server)).toEqual({ code: 'INVALID_AUTH_OPTIONS', message });
  });
});
