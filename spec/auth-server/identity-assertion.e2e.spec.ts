import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Client, CrossAppAccessProvider, discoverAndRequestJwtAuthGrant, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as jose from 'jose';
import { BootstrapError, CurrentAuth, Injectable, McpFactory, McpModule, Module, Scopes, Tool, type McpApplication, type McpAuth } from 'mcp-reflect';
import type { IdentityAssertionOptions } from 'mcp-reflect/auth-server';
import { dpopKey, send } from '../auth/dpop-support';
import { startEnterpriseIdp, type EnterpriseIdp } from './enterprise-idp';
import { register, startUpstream, type Upstream } from './support';

/**
 * Enterprise-managed authorization (issue 44, item 1; SEP-990): an agent holding a user's ID token from the
 * company's IdP exchanges it there (RFC 8693) for an ID-JAG, and presents the ID-JAG at this server's token
 * endpoint (the jwt-bearer grant): no browser, no consent page. The IdP is a real oidc-provider; the client side is
 * the SDK's CrossAppAccessProvider and discoverAndRequestJwtAuthGrant. Every refusal is a standard error with its reason.
 */

@Injectable()
class NotesTools {
  @Tool({ description: 'Who calls, as the access token says.' })
  whoami(@CurrentAuth() auth: McpAuth | undefined) {
    return { subject: auth?.subject, clientId: auth?.clientId, machine: auth?.machine ?? false, scopes: auth?.scopes ?? [], idp: auth?.claims.idp, email: auth?.claims.email };
  }

  @Tool({ description: 'Writes a note.' })
  @Scopes('notes:write')
  write(): string {
    return 'written';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0' })], providers: [NotesTools] })
class NotesModule {}

const AGENT_SECRET = randomBytes(32).toString('base64url');
const structured = (result: unknown) => (result as { structuredContent: Record<string, unknown> }).structuredContent;

describe('enterprise sign-in: ID-JAGs of a trusted enterprise IdP (jwt-bearer grant)', () => {
  let upstream: Upstream;
  let idp: EnterpriseIdp;
  let app: McpApplication;
  let url: string;
  let origin: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    upstream = await startUpstream();
    idp = await startEnterpriseIdp({ mcpClientId: 'acme-agent', scopes: ['notes:read', 'notes:write'] });
    app = await McpFactory.create(NotesModule);
    const identityAssertion: IdentityAssertionOptions = {
      // Its keys are found through its metadata (OpenID discovery), as for an Okta or Entra tenant.
      issuers: [{ issuer: idp.issuer, scopes: ['notes:read'] }],
      clients: [{ clientId: 'acme-agent', clientSecret: AGENT_SECRET }],
    };
    await app.listen({
      transport: 'http',
      port: 0,
      auth: { scopesSupported: ['notes:read', 'notes:write'], server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }, identityAssertion } },
    });
    url = await app.getUrl();
    origin = new URL(url).origin;
    upstream.register(`${origin}/oauth/callback`);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await app?.close();
    await idp?.close();
    await upstream?.close();
  });

  /** A jwt-bearer token request of the agent (client_secret_basic). */
  const present = async (assertion: string, extra: Record<string, string> = {}, secret = AGENT_SECRET) => {
    const response = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`acme-agent:${secret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion, ...extra }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const grantFor = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = { typ: 'oauth-id-jag+jwt' }) => {
    const now = Math.floor(Date.now() / 1000);
    return idp.sign({ iss: idp.issuer, sub: 'emp-7', aud: origin, resource: url, client_id: 'acme-agent', jti: randomBytes(8).toString('hex'), iat: now, exp: now + 300, ...claims }, header);
  };

  it('announces the grant in the metadata', async () => {
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, string[]>;
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['urn:ietf:params:oauth:grant-type:jwt-bearer', 'authorization_code']));
  });

  it('the SDK client exchanges the ID token at the IdP and the ID-JAG here: the user’s subject, the IdP, the scopes the IdP may grant', async () => {
    const idToken = await idp.idToken('emp-42', { email: 'ada@acme.example' });
    const authProvider = new CrossAppAccessProvider({
      clientId: 'acme-agent',
      clientSecret: AGENT_SECRET,
      expectedIssuer: origin,
      assertion: async (ctx) =>
        (await discoverAndRequestJwtAuthGrant({ idpUrl: idp.issuer, audience: ctx.authorizationServerUrl, resource: ctx.resourceUrl, idToken, clientId: idp.clientId, clientSecret: idp.clientSecret, scope: ctx.scope, fetchFn: ctx.fetchFn })).jwtAuthGrant,
    });
    const client = new Client({ name: 'agent', version: '1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
    expect(idp.issued).toHaveLength(1);
    // The IdP vouched for notes:read and notes:write; this server lets its users have notes:read.
    expect(structured(await client.callTool({ name: 'whoami', arguments: {} }))).toEqual({ subject: 'emp-42', clientId: 'acme-agent', machine: false, scopes: ['notes:read'], idp: idp.issuer, email: 'ada@acme.example' });
    const write = await client.callTool({ name: 'write', arguments: {} }).then(() => 'written', (error: Error) => error.message);
    expect(write).toMatch(/insufficient_scope/);
  });

  it('refuses a replayed ID-JAG, and one for another audience, resource or client, of an untrusted or forged issuer, of another type, expired or too old', async () => {
    const once = await grantFor();
    expect((await present(once)).status).toBe(200);
    const stranger = new jose.SignJWT({ iss: 'https://evil.example', sub: 'x', aud: origin, resource: url, client_id: 'acme-agent', jti: 'j' })
      .setProtectedHeader({ alg: 'HS256', typ: 'oauth-id-jag+jwt' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('k'.repeat(32)));
    const now = Math.floor(Date.now() / 1000);
    const cases: [string | Promise<string>, string][] = [
      [once, 'the assertion was used before'],
      [grantFor({ aud: 'https://other-as.example' }), 'the assertion is not for this authorization server (aud)'],
      [grantFor({ resource: 'https://other.example/mcp' }), `the assertion is not for this resource (${url})`],
      [grantFor({ client_id: 'someone-else' }), 'the assertion was issued to another client'],
      [stranger, 'the assertion was issued by an identity provider this server does not trust'],
      [grantFor({}, { typ: 'JWT' }), 'the assertion is not an ID-JAG (typ oauth-id-jag+jwt)'],
      [grantFor({ iat: now - 900, exp: now - 600 }), 'the assertion has expired'],
      [grantFor({ iat: now - 1200, exp: now + 600 }), 'the assertion is too old'],
      ['not-a-jwt', 'the assertion is not a JWT'],
    ];
    for (const [assertion, reason] of cases) {
      const answer = await present(await assertion);
      expect({ status: answer.status, ...answer.body }).toEqual({ status: 400, error: 'invalid_grant', error_description: reason });
    }
    // Signed with another key under the IdP's name: the signature does not hold.
    const forged = await new jose.SignJWT({ iss: idp.issuer, sub: 'emp-7', aud: origin, resource: url, client_id: 'acme-agent', jti: 'f1' })
      .setProtectedHeader({ alg: 'ES256', kid: 'idp-1', typ: 'oauth-id-jag+jwt' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign((await jose.generateKeyPair('ES256')).privateKey);
    expect((await present(forged)).body).toMatchObject({ error: 'invalid_grant', error_description: "the assertion's signature is invalid" });
    // Scopes the IdP's users may not have here: invalid_scope; a wrong client secret: invalid_client.
    expect((await present(await grantFor(), { scope: 'notes:write' })).body).toMatchObject({ error: 'invalid_scope' });
    expect((await present(await grantFor(), {}, 'x'.repeat(43))).status).toBe(401);
  });

  it('lets no other client present ID-JAGs: a public client registered by anyone, or one asking to register for the grant', async () => {
    const publicClient = await register(origin, ['http://127.0.0.1:47500/callback']);
    const response = await fetch(`${origin}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: await grantFor({ client_id: publicClient }), client_id: publicClient }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request', error_description: 'requested grant type is not allowed for this client' });
    const registration = await fetch(`${origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'client_secret_basic' }),
    });
    expect(registration.status).toBe(400);
    expect(await registration.json()).toMatchObject({ error: 'invalid_client_metadata', error_description: 'the jwt-bearer grant (ID-JAG) is for the clients auth.server.identityAssertion names' });
  });
});

describe('identityAssertion options', () => {
  it('fail the bootstrap naming the option, the cause and the fix', async () => {
    const cases: [IdentityAssertionOptions, string][] = [
      [{ issuers: [], clients: [{ clientId: 'a', clientSecret: AGENT_SECRET }] }, 'auth.server.identityAssertion.issuers is empty.'],
      [{ issuers: [{ issuer: 'acme' }], clients: [{ clientId: 'a', clientSecret: AGENT_SECRET }] }, 'auth.server.identityAssertion.issuers[0].issuer must be the IdP\'s issuer URL, got "acme".'],
      [{ issuers: [{ issuer: 'https://acme.okta.com', clients: ['b'] }], clients: [{ clientId: 'a', clientSecret: AGENT_SECRET }] }, 'auth.server.identityAssertion.issuers[0].clients names b, not among auth.server.identityAssertion.clients.'],
      [{ issuers: [{ issuer: 'https://acme.okta.com', scopes: ['admin'] }], clients: [{ clientId: 'a', clientSecret: AGENT_SECRET }] }, "auth.server.identityAssertion.issuers[0].scopes names admin, not among the server's scopes (read)."],
      [{ issuers: [{ issuer: 'https://acme.okta.com' }], clients: [{ clientId: 'a' }] }, "auth.server.identityAssertion.clients[0] ('a') must give exactly one of jwks, jwksUri or clientSecret (it gives 0)."],
    ];
    for (const [identityAssertion, cause] of cases) {
      const app = await McpFactory.create(NotesModule);
      const error = await app
        .listen({ transport: 'http', port: 0, auth: { scopesSupported: ['read'], server: { upstream: { issuer: 'https://id.example.com', clientId: 'x', clientSecret: 'y' }, identityAssertion } } })
        .then(() => undefined, (e: Error) => e);
      await app.close();
      expect(error).toBeInstanceOf(BootstrapError);
      expect(error!.message).toContain(`Cannot serve with these auth options: ${cause}\nFix: `);
    }
  });
});

describe('ID-JAGs with auth.dpop: the access token bound to the proof’s key', () => {
  it('binds the token of a request with a proof (cnf.jkt), spends the proof, and with dpop.required refuses a request without one', async () => {
    const upstream = await startUpstream();
    const idp = await startEnterpriseIdp({ mcpClientId: 'acme-agent' });
    const apps: McpApplication[] = [];
    try {
      const start = async (required: boolean) => {
        const app = await McpFactory.create(NotesModule);
        apps.push(app);
        await app.listen({
          transport: 'http',
          port: 0,
          auth: {
            scopesSupported: ['notes:read'],
            dpop: required ? { required: true } : true,
            server: { upstream: { issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }, identityAssertion: { issuers: [{ issuer: idp.issuer }], clients: [{ clientId: 'acme-agent', clientSecret: AGENT_SECRET }] } },
          },
        });
        const url = await app.getUrl();
        return { url, origin: new URL(url).origin };
      };
      const grantFor = (origin: string, url: string) => {
        const now = Math.floor(Date.now() / 1000);
        return idp.sign({ iss: idp.issuer, sub: 'emp-3', aud: origin, resource: url, client_id: 'acme-agent', jti: randomBytes(8).toString('hex'), iat: now, exp: now + 300 }, { typ: 'oauth-id-jag+jwt' });
      };
      const present = async (origin: string, assertion: string, proof?: string) => {
        const response = await fetch(`${origin}/oauth/token`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`acme-agent:${AGENT_SECRET}`).toString('base64')}`, ...(proof ? { dpop: proof } : {}) },
          body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };

      const { url, origin } = await start(false);
      const key = await dpopKey();
      const proof = await key.proof({ htu: `${origin}/oauth/token` });
      const bound = await present(origin, await grantFor(origin, url), proof);
      expect(bound).toMatchObject({ status: 200, body: { token_type: 'DPoP' } });
      const token = String(bound.body.access_token);
      expect(jose.decodeJwt(token).cnf).toEqual({ jkt: key.jkt });
      // The proof is spent; the token works with a proof of its key, and never as a bearer token.
      expect((await present(origin, await grantFor(origin, url), proof)).body).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.stringMatching(/used before/) });
      expect((await send(url, 'DPoP', token, await key.proof({ htu: url, token }))).status).toBe(200);
      expect((await send(url, 'Bearer', token)).status).toBe(401);
      // Without a proof: a bearer token, as oidc-provider's own grants do.
      expect((await present(origin, await grantFor(origin, url))).body).toMatchObject({ token_type: 'Bearer' });

      const strict = await start(true);
      expect((await present(strict.origin, await grantFor(strict.origin, strict.url))).body).toEqual({ error: 'invalid_dpop_proof', error_description: 'a DPoP proof is required' });
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await idp.close();
      await upstream.close();
    }
  }, 30_000);
});
