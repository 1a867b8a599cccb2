import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as jose from 'jose';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { dpopFetch, dpopKey } from '../auth/dpop-support';
import { authorizationUrl, browse, pkce, register, SignInModule, startUpstream, type Upstream } from './support';

const REDIRECT = 'http://127.0.0.1:47124/callback';

/**
 * DPoP end to end with this server as its own authorization server (`auth.server` with `auth.dpop`): the SDK
 * client registers, the user signs in, the token endpoint binds the access token to the client's key (RFC 9449
 * §5), and every MCP request carries a proof of it (over Node HTTP, the real SDK transport). A stolen token alone
 * is useless: as a bearer token, or with a proof of another key.
 */
describe('sign-in with DPoP-bound tokens from the authorization server', () => {
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
      auth: { scopesSupported: ['notes:read'], dpop: true, server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret } } },
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

  it('publishes dpop_signing_alg_values_supported in both metadata documents', async () => {
    const as = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    const resource = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    const algs = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512', 'EdDSA', 'Ed25519'];
    expect(new Set(as.dpop_signing_alg_values_supported as string[])).toEqual(new Set(algs));
    expect(resource.dpop_signing_alg_values_supported).toEqual(algs);
  });

  it('a client with a jose key gets a token bound to it, then calls tools with proofs (SDK client); the token alone is refused', async () => {
    const key = await dpopKey();
    const clientId = await register(origin, [REDIRECT]);
    const { verifier, challenge } = pkce();
    const { url: callback } = await browse(authorizationUrl(origin, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: url, scope: 'notes:read' }), REDIRECT, { login: 'alice' });
    const tokenEndpoint = `${origin}/oauth/token`;
    const exchange = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: { dpop: await key.proof({ htu: tokenEndpoint }) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, resource: url }),
    });
    const tokens = (await exchange.json()) as { access_token: string; token_type: string };
    expect({ status: exchange.status, type: tokens.token_type }).toEqual({ status: 200, type: 'DPoP' });
    const token = tokens.access_token;
    expect(jose.decodeJwt(token).cnf).toEqual({ jkt: key.jkt });

    const client = new Client({ name: 'desktop', version: '1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: dpopFetch(key, () => token) }));
    const who = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent;
    expect(who).toMatchObject({ subject: 'alice', clientId, scopes: ['notes:read'] });

    // Stolen: as a bearer token, and with a proof of the thief's own key.
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const asBearer = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}` }, body });
    expect({ status: asBearer.status, body: await asBearer.json() }).toEqual({
      status: 401,
      body: { error: 'invalid_token', error_description: 'The access token is bound to a DPoP key: present it as Authorization: DPoP <token> with a DPoP proof (RFC 9449).' },
    });
    const thief = await dpopKey();
    const withOtherKey = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `DPoP ${token}`, dpop: await thief.proof({ htu: url, token }) }, body });
    expect({ status: withOtherKey.status, body: await withOtherKey.json() }).toEqual({
      status: 401,
      body: { error: 'invalid_dpop_proof', error_description: 'The DPoP proof is signed with another key than the one the access token is bound to (cnf.jkt).' },
    });
  });

  it('without a proof at the token endpoint, the token is a bearer token, served as one', async () => {
    const clientId = await register(origin, [REDIRECT]);
    const { verifier, challenge } = pkce();
    const { url: callback } = await browse(authorizationUrl(origin, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: url, scope: 'notes:read' }), REDIRECT, { login: 'bob' });
    const exchange = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, resource: url }),
    });
    const tokens = (await exchange.json()) as { access_token: string; token_type: string };
    expect(tokens.token_type).toBe('Bearer');
    expect(jose.decodeJwt(tokens.access_token).cnf).toBeUndefined();
    const client = new Client({ name: 'desktop', version: '1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
    expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toMatchObject({ subject: 'bob' });
  });
});

describe.each([
  ['required', { required: true }],
  ['off', undefined],
] as const)('the authorization server with auth.dpop %s', (_name, dpop) => {
  let upstream: Upstream;
  let app: McpApplication;
  let url: string;
  let origin: string;

  beforeAll(async () => {
    upstream = await startUpstream();
    app = await McpFactory.create(SignInModule);
    await app.listen({
      transport: 'http',
      port: 0,
      auth: { scopesSupported: ['notes:read'], ...(dpop ? { dpop } : {}), server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret } } },
    });
    url = await app.getUrl();
    origin = new URL(url).origin;
    upstream.register(`${origin}/oauth/callback`);
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  /** A code for a new client, exchanged with `proof` (or none): the token endpoint's answer. */
  const exchange = async (key?: Awaited<ReturnType<typeof dpopKey>>) => {
    const clientId = await register(origin, [REDIRECT]);
    const { verifier, challenge } = pkce();
    const { url: callback } = await browse(authorizationUrl(origin, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: url, scope: 'notes:read' }), REDIRECT);
    const tokenEndpoint = `${origin}/oauth/token`;
    const response = await fetch(tokenEndpoint, {
      method: 'POST',
      ...(key ? { headers: { dpop: await key.proof({ htu: tokenEndpoint }) } } : {}),
      body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, resource: url }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  if (dpop) {
    it('refuses a token request without a proof (every client is dpop_bound_access_tokens), and binds one with a proof', async () => {
      expect(await exchange()).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'grant request is invalid' } });
      const key = await dpopKey();
      const bound = await exchange(key);
      expect({ status: bound.status, type: bound.body.token_type, cnf: jose.decodeJwt(bound.body.access_token as string).cnf }).toEqual({ status: 200, type: 'DPoP', cnf: { jkt: key.jkt } });
      const resource = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
      expect(resource.dpop_bound_access_tokens_required).toBe(true);
    });
  } else {
    it('ignores proofs: the token is a bearer token, and the metadata offers no DPoP', async () => {
      const answer = await exchange(await dpopKey());
      expect({ status: answer.status, type: answer.body.token_type, cnf: jose.decodeJwt(answer.body.access_token as string).cnf }).toEqual({ status: 200, type: 'Bearer', cnf: undefined });
      const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      expect(metadata.dpop_signing_alg_values_supported).toBeUndefined();
    });
  }
});

