import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { AppClientProvider, browse, SignInModule, startUpstream, type Upstream } from './support';

const REDIRECT = 'http://127.0.0.1:47133/callback';

/**
 * Expired upstream tokens are refreshed (issue 44, item 4): `ctx.upstreamTokens()` asked after the upstream access
 * token expired answers a fresh one, got with the upstream refresh token — once for concurrent callers — and not
 * the dead token; when the refresh fails, none.
 */
describe('upstream tokens refreshed when ctx.upstreamTokens() is asked', () => {
  let upstream: Upstream;
  let app: McpApplication;
  let url: string;
  let client: Client;

  beforeAll(async () => {
    upstream = await startUpstream({ refresh: { accessTokenTtl: 12 } });
    app = await McpFactory.create(SignInModule);
    await app.listen({ transport: 'http', port: 0, auth: { server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret } } } });
    url = await app.getUrl();
    upstream.register(`${new URL(url).origin}/oauth/callback`);
    const provider = new AppClientProvider(REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await expect(new Client({ name: 'desktop', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const { url: callback } = await browse(provider.redirects[0], REDIRECT, { login: 'bob' });
    await transport.finishAuth(callback.searchParams);
    client = new Client({ name: 'desktop', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await upstream?.close();
  });

  const profile = async () => (await client.callTool({ name: 'upstreamProfile', arguments: {} })).structuredContent as { hasToken: boolean; accessToken?: string };

  it('hands out the sign-in token while it lives, then one refreshed once for concurrent callers', async () => {
    const first = await profile();
    expect(first.accessToken).toBe(upstream.accessTokens[0]);
    expect(upstream.accessTokens).toHaveLength(1);
    // Within 5 s of its end (12 s): refreshed, once, though three calls ask at the same time.
    await new Promise((resolve) => setTimeout(resolve, 7_500));
    const [a, b, c] = await Promise.all([profile(), profile(), profile()]);
    expect(upstream.accessTokens).toHaveLength(2);
    expect([a.accessToken, b.accessToken, c.accessToken]).toEqual([upstream.accessTokens[1], upstream.accessTokens[1], upstream.accessTokens[1]]);
    expect(a.accessToken).not.toBe(first.accessToken);
  }, 30_000);

  it('answers no token, rather than a dead one, when the refresh fails', async () => {
    await upstream.close();
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect(await profile()).toMatchObject({ hasToken: false });
  }, 30_000);
});
