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
});
