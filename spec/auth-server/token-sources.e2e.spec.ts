import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import * as jose from 'jose';
import { CurrentAuth, Injectable, McpFactory, McpModule, Module, Tool, type McpApplication, type McpAuth } from 'mcp-reflect';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startEnterpriseIdp, type EnterpriseIdp } from './enterprise-idp';
import { startUpstream, type Upstream } from './support';

/**
 * Several token sources on one server (issue 44, item 5): `auth.server` (this server's sign-in and machine
 * clients) and `auth.issuer` (a company's IdP issuing access tokens for this resource itself) side by side — each
 * token verified by its own issuer's keys, both issuers published in the resource metadata, any other refused.
 */

@Injectable()
class WhoTools {
  @Tool({ description: 'Who calls.' })
  whoami(@CurrentAuth() auth: McpAuth | undefined) {
    return { subject: auth?.subject, issuer: auth?.issuer, scopes: auth?.scopes ?? [] };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'both', version: '1.0.0' })], providers: [WhoTools] })
class BothModule {}

const SECRET = randomBytes(32).toString('base64url');

describe('tokens of this server and of an external IdP, side by side', () => {
  let upstream: Upstream;
  let idp: EnterpriseIdp;
  let app: McpApplication;
  let url: string;
  let origin: string;

  beforeAll(async () => {
    upstream = await startUpstream();
    idp = await startEnterpriseIdp({ mcpClientId: 'unused' });
    app = await McpFactory.create(BothModule);
    await app.listen({
      transport: 'http',
      port: 0,
      auth: {
        // The company's IdP: its JWT access tokens for this resource, keys found by discovery.
        issuer: idp.issuer,
        scopesSupported: ['read'],
        server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }, machineClients: { clients: [{ clientId: 'ci', clientSecret: SECRET, scopes: ['read'] }] } },
      },
    });
    url = await app.getUrl();
    origin = new URL(url).origin;
    upstream.register(`${origin}/oauth/callback`);
  });
  afterAll(async () => {
    await app?.close();
    await idp?.close();
    await upstream?.close();
  });

  /** A tools/call with the token, through the SDK client; the 401's challenge when it is refused. */
  const whoami = async (token: string) => {
    const client = new Client({ name: 'raw', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      return { status: 200, who: result.structuredContent };
    } catch {
      const answer = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      return { status: answer.status, challenge: answer.headers.get('www-authenticate') };
    } finally {
      await client.close().catch(() => undefined);
    }
  };
  const idpToken = (claims: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return idp.sign({ iss: idp.issuer, sub: 'emp-9', aud: url, scope: 'read', client_id: 'acme-app', iat: now, exp: now + 300, ...claims }, { typ: 'at+jwt' });
  };

  it('publishes both authorization servers', async () => {
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as { authorization_servers: string[] };
    expect(metadata.authorization_servers).toEqual([origin, idp.issuer]);
  });

  it('accepts this server’s token and the IdP’s, each verified by its own issuer', async () => {
    const issued = await fetch(`${origin}/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`ci:${SECRET}`).toString('base64')}` }, body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'read' }) });
    const local = ((await issued.json()) as { access_token: string }).access_token;
    expect(await whoami(local)).toEqual({ status: 200, who: { subject: 'ci', issuer: origin, scopes: ['read'] } });
    expect(await whoami(await idpToken())).toEqual({ status: 200, who: { subject: 'emp-9', issuer: idp.issuer, scopes: ['read'] } });
  });

  it('refuses the IdP’s token for another resource, one signed by another key under either name, and a third issuer’s', async () => {
    const other = (await jose.generateKeyPair('ES256')).privateKey;
    const forge = (iss: string) => new jose.SignJWT({ sub: 'x', scope: 'read' }).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'idp-1' }).setIssuer(iss).setAudience(url).setIssuedAt().setExpirationTime('5m').sign(other);
    for (const token of [await idpToken({ aud: 'https://elsewhere.example/mcp' }), await forge(idp.issuer), await forge(origin), await forge('https://evil.example')]) {
      const answer = await whoami(token);
      expect(answer.status).toBe(401);
      expect(String(answer.challenge)).toMatch(/invalid_token/);
    }
  });
});
