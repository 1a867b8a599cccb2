import { createHash, randomBytes } from 'node:crypto';
import * as jose from 'jose';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';

/** The harness for the authorization specs: a real oidc-provider issuing real tokens. */
describe('authorization server harness', () => {
  const resource = 'http://127.0.0.1:1234/mcp';
  let server: AuthorizationServer;
  let jwks: ReturnType<typeof jose.createRemoteJWKSet>;

  beforeAll(async () => {
    server = await startAuthorizationServer();
    // jose refetches a cached JWKS for an unknown kid only after `cooldownDuration` (default 30 s): without 0
    // here, a key set that cached the old keys would not see the new kid right after rotateKeys().
    jwks = jose.createRemoteJWKSet(new URL(server.jwksUri), { cooldownDuration: 0 });
  });
  afterAll(() => server?.close());

  const verify = (token: string, audience = resource) =>
    jose.jwtVerify(token, jwks, { issuer: server.issuer, audience });

  it('issues a client-credentials JWT for a resource, with its audience and scope, verifiable with the JWKS', async () => {
    const token = await server.token({ scope: 'notes:read', resource });

    const { payload, protectedHeader } = await verify(token);

    expect(server.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt', kid: expect.any(String) });
    expect(payload).toMatchObject({ iss: server.issuer, aud: resource, scope: 'notes:read', client_id: server.clientId });
  });

  it('addresses a token for another resource to that resource only', async () => {
    const other = 'http://127.0.0.1:4321/other';
    const token = await server.token({ scope: 'notes:read notes:write', resource: other });

    const { payload } = await verify(token, other);

    expect(payload).toMatchObject({ aud: other, scope: 'notes:read notes:write' });
    await expect(verify(token, resource)).rejects.toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'aud' });
  });

  it('drops scopes the client may not have', async () => {
    const token = await server.token({ scope: 'notes:read notes:delete', resource });
    expect((await verify(token)).payload.scope).toBe('notes:read');
  });

  it('signs with a new key after rotateKeys(), and tokens signed with the old key still verify', async () => {
    const before = await server.token({ scope: 'notes:read', resource });

    await server.rotateKeys();
    const after = await server.token({ scope: 'notes:read', resource });

    const oldKid = jose.decodeProtectedHeader(before).kid;
    const newKid = jose.decodeProtectedHeader(after).kid;
    expect(newKid).toEqual(expect.any(String));
    expect(newKid).not.toBe(oldKid);
    const published = ((await (await fetch(server.jwksUri)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
    expect(published).toEqual(expect.arrayContaining([oldKid, newKid]));
    // A fresh key set and the one that cached the old keys both accept both tokens.
    const fresh = jose.createRemoteJWKSet(new URL(server.jwksUri));
    for (const keys of [jwks, fresh]) {
      await expect(jose.jwtVerify(after, keys, { issuer: server.issuer, audience: resource })).resolves.toBeDefined();
      await expect(jose.jwtVerify(before, keys, { issuer: server.issuer, audience: resource })).resolves.toBeDefined();
    }
  });

  it('publishes RFC 8414 metadata with the token endpoint and S256 PKCE', async () => {
    const metadata = (await (await fetch(server.metadataUrl)).json()) as Record<string, unknown>;

    expect(server.metadataUrl).toBe(`${server.issuer}/.well-known/oauth-authorization-server`);
    expect(metadata).toMatchObject({
      issuer: server.issuer,
      token_endpoint: server.tokenEndpoint,
      jwks_uri: server.jwksUri,
      code_challenge_methods_supported: expect.arrayContaining(['S256']),
      grant_types_supported: expect.arrayContaining(['client_credentials', 'authorization_code']),
    });
    expect(server.tokenEndpoint.startsWith(server.issuer)).toBe(true);
  });

  it('refuses a client with the wrong secret', async () => {
    const response = await fetch(server.tokenEndpoint, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${server.clientId}:wrong`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('signs hand-made tokens with its current key, verifiable with its JWKS', async () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = await server.sign({ iss: server.issuer, aud: resource, exp, sub: 'hand-made', scope: 'notes:read' });
    const { payload, protectedHeader } = await verify(token);
    expect(payload).toMatchObject({ sub: 'hand-made', exp });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
  });

  it('runs the authorization code flow with PKCE through its sign-in and consent pages, and refreshes for offline_access', async () => {
    const { authorization_endpoint } = (await (await fetch(server.metadataUrl)).json()) as { authorization_endpoint: string };
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(8).toString('hex');
    const request = new URL(authorization_endpoint);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: server.publicClient.clientId,
      redirect_uri: server.publicClient.redirectUri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      scope: 'notes:read offline_access',
      prompt: 'consent',
      resource,
      state,
    }))
      request.searchParams.set(name, value);

    const callback = await server.authorize(request, { login: 'bob' });

    expect(callback.origin + callback.pathname).toBe(server.publicClient.redirectUri);
    expect(Object.fromEntries(callback.searchParams)).toEqual({ code: expect.any(String), state, iss: server.issuer });
    const redeem = async (params: Record<string, string>) => {
      const body = new URLSearchParams({ client_id: server.publicClient.clientId, resource, ...params });
      const response = await fetch(server.tokenEndpoint, { method: 'POST', body });
      expect(response.status).toBe(200);
      return (await response.json()) as { access_token: string; refresh_token?: string; scope: string };
    };
    const code = callback.searchParams.get('code')!;
    const issued = await redeem({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: server.publicClient.redirectUri });
    expect((await verify(issued.access_token)).payload).toMatchObject({ sub: 'bob', aud: resource, scope: 'notes:read', client_id: server.publicClient.clientId });
    expect(issued.refresh_token).toEqual(expect.any(String));

    const refreshed = await redeem({ grant_type: 'refresh_token', refresh_token: issued.refresh_token! });
    expect(refreshed.access_token).not.toBe(issued.access_token);
    expect((await verify(refreshed.access_token)).payload).toMatchObject({ sub: 'bob', aud: resource, scope: 'notes:read' });

    const grants = await server.grants();
    expect(grants.slice(-2)).toEqual([
      { grantType: 'authorization_code', clientId: server.publicClient.clientId, resource, scope: 'notes:read', accessToken: issued.access_token, refreshToken: true },
      { grantType: 'refresh_token', clientId: server.publicClient.clientId, resource, scope: 'notes:read', accessToken: refreshed.access_token, refreshToken: true },
    ]);
  });

  it('stops at the redirect with an error when the request is refused', async () => {
    const { authorization_endpoint } = (await (await fetch(server.metadataUrl)).json()) as { authorization_endpoint: string };
    const request = new URL(authorization_endpoint);
    request.search = new URLSearchParams({
      response_type: 'code',
      client_id: server.publicClient.clientId,
      redirect_uri: server.publicClient.redirectUri,
      scope: 'notes:read',
      resource,
    }).toString();
    const callback = await server.authorize(request);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('issues access tokens with the lifetime it is given', async () => {
    const shortLived = await startAuthorizationServer({ accessTokenTtlSeconds: 3 });
    try {
      const lifetime = async (as: AuthorizationServer) => {
        const { exp, iat } = jose.decodeJwt(await as.token({ scope: 'notes:read', resource }));
        return exp! - iat!;
      };
      expect(await lifetime(shortLived)).toBe(3);
      expect(await lifetime(server)).toBe(600);
    } finally {
      await shortLived.close();
    }
  });
});
