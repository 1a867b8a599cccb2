import 'reflect-metadata';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Client, ClientCredentialsProvider, PrivateKeyJwtProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as jose from 'jose';
import { BootstrapError, CurrentAuth, Injectable, McpFactory, McpModule, Module, Scopes, Tool, type McpApplication, type McpAuth } from 'mcp-reflect';
import type { MachineClientOptions } from 'mcp-reflect/auth-server';
import { register, startUpstream, tokenRequest, type Upstream } from './support';

/**
 * Machine clients (issue 44, item 2; SEP-1046): CI jobs and agents get tokens with the client credentials grant —
 * clients the operator configured (a key, RFC 7523 private_key_jwt, or a secret) and clients registered with the
 * operator's initial access token (private_key_jwt only) — through the SDK client's own providers; the token
 * speaks for no user (`ctx.auth.machine`), `@Scopes()` holds; nobody else may hold the grant.
 */

@Injectable()
class DeployTools {
  @Tool({ description: 'Who calls, as the access token says.' })
  whoami(@CurrentAuth() auth: McpAuth | undefined) {
    return { subject: auth?.subject, clientId: auth?.clientId, machine: auth?.machine ?? false, scopes: auth?.scopes ?? [], upstream: typeof auth?.upstreamTokens };
  }

  @Tool({ description: 'Deploys.' })
  @Scopes('deploy')
  deploy(): string {
    return 'deployed';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'deployer', version: '1.0.0' })], providers: [DeployTools] })
class DeployModule {}

const ecKey = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateJwk: { ...privateKey.export({ format: 'jwk' }), alg: 'ES256' }, publicJwk: { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256', use: 'sig' } };
};
/**
 * The SDK's PrivateKeyJwtProvider, its client assertion signed with the jose this spec imports: the SDK loads jose
 * with `import()`, which jest runs only under --experimental-vm-modules. The assertion is the SDK's (RFC 7523
 * claims, audience the issuer), and the rest of its flow — discovery, the token request, the retry — is the SDK's.
 */
function keyProvider(options: { clientId: string; privateJwk: Record<string, unknown>; scope: string; issuer: string }): PrivateKeyJwtProvider {
  const provider = new PrivateKeyJwtProvider({ clientId: options.clientId, privateKey: options.privateJwk, algorithm: 'ES256', scope: options.scope, expectedIssuer: options.issuer });
  provider.addClientAuthentication = async (_headers, params, url, metadata) => {
    const key = await jose.importJWK(options.privateJwk as jose.JWK, 'ES256');
    const assertion = await new jose.SignJWT({})
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setIssuer(options.clientId)
      .setSubject(options.clientId)
      .setAudience(String(metadata?.issuer ?? url))
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(randomBytes(12).toString('hex'))
      .sign(key);
    params.set('client_assertion', assertion);
    params.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
  };
  return provider;
}

const SECRET = randomBytes(32).toString('base64url');
const INITIAL = randomBytes(32).toString('base64url');
const ciKey = ecKey();
const structured = (result: unknown) => (result as { structuredContent: Record<string, unknown> }).structuredContent;
const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe('machine clients: the client credentials grant of the authorization server', () => {
  let upstream: Upstream;
  let app: McpApplication;
  let url: string;
  let origin: string;
  const clients: Client[] = [];

  const machineClients: MachineClientOptions = {
    clients: [
      { clientId: 'ci-deploy', jwks: { keys: [ciKey.publicJwk] }, scopes: ['deploy', 'read'] },
      { clientId: 'nightly', clientSecret: SECRET, scopes: ['read'] },
      { clientId: 'idle', clientSecret: SECRET, scopes: [] },
    ],
    registration: { initialAccessToken: INITIAL, scopes: ['read'] },
  };

  beforeAll(async () => {
    upstream = await startUpstream();
    app = await McpFactory.create(DeployModule);
    await app.listen({
      transport: 'http',
      port: 0,
      auth: { scopesSupported: ['deploy', 'read'], server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }, machineClients } },
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

  const connect = async (authProvider: ConstructorParameters<typeof StreamableHTTPClientTransport>[1] extends infer O ? (O extends { authProvider?: infer P } ? P : never) : never) => {
    const client = new Client({ name: 'ci', version: '1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
    return client;
  };

  it('announces the grant and its client authentication methods in the metadata', async () => {
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, string[]>;
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['client_credentials', 'authorization_code', 'refresh_token']));
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['private_key_jwt', 'client_secret_basic']));
  });

  it('a configured client with a key (private_key_jwt) connects through the SDK client: a machine subject, its scopes, @Scopes() holding', async () => {
    const client = await connect(keyProvider({ clientId: 'ci-deploy', privateJwk: ciKey.privateJwk, scope: 'deploy read', issuer: origin }));
    expect(structured(await client.callTool({ name: 'whoami', arguments: {} }))).toEqual({ subject: 'ci-deploy', clientId: 'ci-deploy', machine: true, scopes: ['deploy', 'read'], upstream: 'undefined' });
    expect(text(await client.callTool({ name: 'deploy', arguments: {} }))).toBe('deployed');
  });

  it('a configured client with a secret (client_secret_basic) gets only the scopes it may have', async () => {
    // The SDK asks for every scope the resource supports (the MCP spec's scope selection): the server narrows.
    const client = await connect(new ClientCredentialsProvider({ clientId: 'nightly', clientSecret: SECRET, scope: 'read', expectedIssuer: origin }));
    expect(structured(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({ subject: 'nightly', machine: true, scopes: ['read'] });
    const idle = await connect(new ClientCredentialsProvider({ clientId: 'idle', clientSecret: SECRET, expectedIssuer: origin }));
    expect(structured(await idle.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({ subject: 'idle', machine: true, scopes: [] });
    // Without the scope: refused (the SDK's step-up cannot get it: the client may not have it), naming it.
    const refused = await client.callTool({ name: 'deploy', arguments: {} }).then(text, (error: Error) => error.message);
    expect(refused).toMatch(/403 insufficient_scope/);
    // Asking for a scope it may not have: refused at the token endpoint.
    const basic = `Basic ${Buffer.from(`nightly:${SECRET}`).toString('base64')}`;
    const asked = await fetch(`${origin}/oauth/token`, { method: 'POST', headers: { authorization: basic }, body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'deploy', resource: url }) });
    expect(asked.status).toBe(400);
    expect(await asked.json()).toMatchObject({ error: 'invalid_scope' });
    const wrong = await fetch(`${origin}/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`nightly:${'x'.repeat(43)}`).toString('base64')}` }, body: new URLSearchParams({ grant_type: 'client_credentials', resource: url }) });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('registers a machine client with the initial access token (private_key_jwt, allowed scopes only), and refuses every other registration of the grant', async () => {
    const key = ecKey();
    const metadata = { client_name: 'agent', grant_types: ['client_credentials'], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [key.publicJwk] }, scope: 'read' };
    const registerWith = (body: Record<string, unknown>, token?: string) =>
      fetch(`${origin}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

    const refusals: [Record<string, unknown>, string | undefined, RegExp][] = [
      [metadata, undefined, /initial access token/],
      [metadata, 'x'.repeat(43), /initial access token/],
      [{ ...metadata, token_endpoint_auth_method: 'none', jwks: undefined }, INITIAL, /private_key_jwt/],
      [{ ...metadata, scope: 'read deploy' }, INITIAL, /may ask for read, not deploy/],
      [{ ...metadata, grant_types: ['client_credentials', 'authorization_code'], response_types: ['code'], redirect_uris: ['http://127.0.0.1:1/cb'] }, INITIAL, /client_credentials grant only/],
    ];
    for (const [body, token, why] of refusals) {
      const response = await registerWith(body, token);
      const answer = (await response.json()) as { error?: string; error_description?: string };
      expect({ status: response.status, error: answer.error }).toEqual({ status: 400, error: 'invalid_client_metadata' });
      expect(answer.error_description).toMatch(why);
    }
    // A public client registered by anyone cannot take the grant either (the DCR flow of interactive clients still works).
    const publicClient = await register(origin, ['http://127.0.0.1:47400/callback']);
    const taken = await tokenRequest(origin, { grant_type: 'client_credentials', client_id: publicClient, resource: url });
    expect(taken.status).toBe(400);
    expect(taken.body).toMatchObject({ error: 'invalid_request', error_description: 'requested grant type is not allowed for this client' });

    // Registered without a scope: those registration allows (read), never more.
    const unscoped = (await (await registerWith({ ...metadata, scope: undefined }, INITIAL)).json()) as { client_id: string; scope?: string };
    expect(unscoped.scope).toBe('read');
    const registered = await registerWith(metadata, INITIAL);
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const client = await connect(keyProvider({ clientId, privateJwk: key.privateJwk, scope: 'read', issuer: origin }));
    expect(structured(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({ subject: clientId, clientId, machine: true, scopes: ['read'] });
  });

  it('refuses a client assertion signed by another key, or replayed', async () => {
    const assertion = (privateJwk: Record<string, unknown>, jti = randomBytes(8).toString('hex')) =>
      jose.importJWK(privateJwk as jose.JWK, 'ES256').then((k) =>
        new jose.SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer('ci-deploy').setSubject('ci-deploy').setAudience(origin).setJti(jti).setIssuedAt().setExpirationTime('2m').sign(k),
      );
    const ask = async (jwt: string) =>
      fetch(`${origin}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'ci-deploy', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: jwt, resource: url, scope: 'read' }),
      });
    expect((await ask(await assertion(ecKey().privateJwk))).status).toBe(401);
    const once = await assertion(ciKey.privateJwk);
    expect((await ask(once)).status).toBe(200);
    const replayed = await ask(once);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ error: 'invalid_client' });
  });
});

describe('machine client options', () => {
  const start = async (machineClients: MachineClientOptions) => {
    const app = await McpFactory.create(DeployModule);
    try {
      await app.listen({ transport: 'http', port: 0, auth: { scopesSupported: ['read'], server: { upstream: { issuer: 'https://id.example.com', clientId: 'x', clientSecret: 'y' }, machineClients } } });
      return undefined;
    } catch (error) {
      return error as Error;
    } finally {
      await app.close();
    }
  };

  it('fail the bootstrap naming the client, the cause and the fix', async () => {
    const cases: [MachineClientOptions, string][] = [
      [{ clients: [{ clientId: 'a', scopes: ['read'] }] }, "auth.server.machineClients.clients[0] ('a') must give exactly one of jwks, jwksUri or clientSecret (it gives 0)."],
      [{ clients: [{ clientId: 'a', clientSecret: 'short', scopes: ['read'] }] }, "auth.server.machineClients.clients[0].clientSecret ('a') is shorter than 32 characters."],
      [{ clients: [{ clientId: 'a', clientSecret: SECRET, scopes: ['admin'] }] }, "auth.server.machineClients.clients[0].scopes ('a') names admin, not among the server's scopes (read)."],
      [{ clients: [{ clientId: 'a', clientSecret: SECRET, scopes: [] }, { clientId: 'a', clientSecret: SECRET, scopes: [] }] }, "auth.server.machineClients.clients[1].clientId 'a' is given twice."],
      [{ registration: { initialAccessToken: 'short' } }, 'auth.server.machineClients.registration.initialAccessToken must be at least 32 characters.'],
    ];
    for (const [options, cause] of cases) {
      const error = await start(options);
      expect(error).toBeInstanceOf(BootstrapError);
      expect(error!.message).toContain(`Cannot serve with these auth options: ${cause}\nFix: `);
    }
  });
});
