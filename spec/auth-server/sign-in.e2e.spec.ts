import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import * as jose from 'jose';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { AppClientProvider, browse, SignInModule, startUpstream, type Upstream } from './support';

const REDIRECT = 'http://127.0.0.1:47123/callback';

describe('sign-in through the authorization server in front of an upstream OIDC provider', () => {
  let upstream: Upstream;
  let app: McpApplication;
  let url: string;
  let origin: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    upstream = await startUpstream();
    app = await McpFactory.create(SignInModule);
    await app.listen({
      transport: 'http',
      port: 0,
      auth: { scopesSupported: ['notes:read', 'notes:write'], server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret } } },
    });
    url = await app.getUrl();
    origin = new URL(url).origin;
    upstream.register(`${origin}/oauth/callback`);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await app?.close();
    await upstream?.close();
  });

  it('publishes RFC 8414 metadata on the MCP origin: PKCE S256 only, RFC 9207 iss, registration, CIMD', async () => {
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      revocation_endpoint: `${origin}/oauth/revoke`,
      jwks_uri: `${origin}/oauth/jwks`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
    const resource = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: url, authorization_servers: [origin] });
  });

  it('the SDK client registers (DCR), the user signs in upstream and consents, and the token carries the upstream identity', async () => {
    const provider = new AppClientProvider(REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await expect(new Client({ name: 'desktop', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toEqual(expect.any(String));
    const request = provider.redirects[0];
    expect(request.origin).toBe(origin);
    expect(request.searchParams.get('resource')).toBe(url);
    expect(request.searchParams.get('code_challenge_method')).toBe('S256');

    const { url: callback, pages } = await browse(request, REDIRECT, { login: 'alice' });
    expect({ callback: callback.href, consent: pages.some((p) => p.includes('Allow <strong>Spec Desktop</strong>')) }).toEqual({ callback: expect.stringContaining('code='), consent: true });
    expect(callback.searchParams.get('iss')).toBe(origin);
    await transport.finishAuth(callback.searchParams);

    const client = new Client({ name: 'desktop', version: '1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    const who = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent;
    expect(who).toMatchObject({ subject: 'alice', clientId: provider.info!.client_id, email: 'alice@example.com', groups: ['staff'], idp: 'upstream', aud: url });

    const token = provider.stored!.access_token;
    expect(jose.decodeProtectedHeader(token)).toMatchObject({ typ: 'at+jwt' });
    expect(provider.stored!.refresh_token).toEqual(expect.any(String));

    // The upstream token reaches a tool through the Context, and is never the MCP token.
    const profile = (await client.callTool({ name: 'upstreamProfile', arguments: {} })).structuredContent as Record<string, unknown>;
    expect(profile).toMatchObject({ provider: 'upstream', hasToken: true, differs: true });
    expect(upstream.accessTokens).toContain(profile.accessToken);
    expect(upstream.accessTokens).not.toContain(token);
  });
});
