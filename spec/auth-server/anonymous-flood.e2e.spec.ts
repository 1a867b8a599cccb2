import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Redis from 'ioredis';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { MemoryAuthStore, RedisAuthStore, type AuthStore } from 'mcp-reflect/auth-server';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { authorizationUrl, browse, pkce, register, SignInModule, startUpstream, tokenRequest, type Upstream } from './support';

const REDIRECT = 'http://127.0.0.1:47300/callback';

/** A raw HTTP request from a loopback address of our choosing (127.0.0.0/8 is all loopback on Linux). */
function from(localAddress: string, url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: options.method ?? 'GET', localAddress, headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A registration of about 50 KB (450 redirect URIs): what the attack sent, 1,500 times. */
function bigRegistration(i: number): string {
  const redirect_uris = Array.from({ length: 450 }, (_, j) => `http://127.0.0.1:47300/cb/${i}/${j}/${'x'.repeat(80)}`);
  return JSON.stringify({ client_name: `flood ${i}`, redirect_uris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] });
}

const registerFrom = (address: string, origin: string, i: number) =>
  from(address, `${origin}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bigRegistration(i) });

describe('anonymous requests to the authorization server are bounded (issue 38, items 1–4)', () => {
  let upstream: Upstream;
  const apps: McpApplication[] = [];
  const clients: Client[] = [];

  async function start(server: Record<string, unknown> = {}, http: Record<string, unknown> = {}) {
    const app = await McpFactory.create(SignInModule);
    apps.push(app);
    await app.listen({
      transport: 'http',
      port: 0,
      ...http,
      auth: { scopesSupported: ['notes:read'], server: { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }, ...server } },
    });
    const url = await app.getUrl();
    const origin = new URL(url).origin;
    upstream.register(`${origin}/oauth/callback`);
    return { url, origin };
  }

  /** Alice signs in with her own client: her tokens, and the MCP client that uses them. */
  async function signIn(origin: string, url: string) {
    const clientId = await register(origin, [REDIRECT]);
    const { verifier, challenge } = pkce();
    const { url: callback } = await browse(authorizationUrl(origin, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: url, scope: 'notes:read' }), REDIRECT, { login: 'alice' });
    const code = callback.searchParams.get('code')!;
    const tokens = await tokenRequest(origin, { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource: url });
    expect(tokens.status).toBe(200);
    return { clientId, refresh: String(tokens.body.refresh_token), access: String(tokens.body.access_token) };
  }

  async function upstreamProfile(url: string, token: string) {
    const client = new Client({ name: 'alice', version: '1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return (await client.callTool({ name: 'upstreamProfile', arguments: {} })).structuredContent as { hasToken: boolean };
  }

  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await Promise.all(apps.map((a) => a.close()));
    await upstream?.close();
  });

  it('a flood of 50 KB registrations from many addresses never evicts a signed-in user (their refresh, their client, their upstream tokens)', async () => {
    // A small store, so that the flood is many times its size: on the attack's server it was 64 MiB and 1,500 registrations.
    const { url, origin } = await start({ store: new MemoryAuthStore({ maxBytes: 1024 * 1024 }) });
    const alice = await signIn(origin, url);
    for (let batch = 0; batch < 6; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => registerFrom(`127.0.0.${10 + batch * 10 + i}`, origin, batch * 10 + i)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    }
    const refreshed = await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: alice.refresh, client_id: alice.clientId });
    expect({ status: refreshed.status, error: refreshed.body.error }).toEqual({ status: 200, error: undefined });
    expect(await upstreamProfile(url, String(refreshed.body.access_token))).toMatchObject({ hasToken: true });
    // Her client is still known: a new authorization request for it reaches the login, not invalid_client.
    const { challenge } = pkce();
    const again = await fetch(authorizationUrl(origin, { client_id: alice.clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: url }), { redirect: 'manual' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toContain('/oauth/interaction/');
  });

  it('one address: refused with 429 and Retry-After past its count or bytes, others still served; all together: 503', async () => {
    const { url, origin } = await start({ anonymous: { maxRequestsPerClient: 5, maxBytesPerClient: 10 * 1024 * 1024, maxBytes: 400 * 1024 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await registerFrom('127.0.0.2', origin, i)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const refused = await registerFrom('127.0.0.2', origin, 7);
    expect({ status: refused.status, retryAfter: Number(refused.headers['retry-after']) > 0, body: JSON.parse(refused.body) }).toEqual({
      status: 429,
      retryAfter: true,
      body: { error: 'too_many_requests', error_description: expect.stringMatching(/^Too many sign-in requests from this address \(at most 5 requests and 10485760 bytes every 1800 s\)\. Retry after \d+ s\.$/) },
    });
    // The authorization request (a browser's) gets a page saying the same.
    const { challenge } = pkce();
    const page = await from('127.0.0.2', authorizationUrl(origin, { client_id: 'x', redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: url }).href);
    expect({ status: page.status, retryAfter: page.headers['retry-after'] !== undefined, text: page.body.includes('Too many sign-in requests from this address') }).toEqual({ status: 429, retryAfter: true, text: true });
    // Another address is served, until all anonymous requests together reach maxBytes (400 KiB: 8 of 50 KB).
    const others: number[] = [];
    for (let i = 0; i < 4; i++) others.push((await registerFrom(`127.0.1.${i + 1}`, origin, 100 + i)).status);
    expect(others).toEqual([201, 201, 503, 503]);
    const busy = await registerFrom('127.0.1.9', origin, 200);
    expect({ status: busy.status, retryAfter: Number(busy.headers['retry-after']) > 0, error: JSON.parse(busy.body).error }).toEqual({ status: 503, retryAfter: true, error: 'temporarily_unavailable' });
  });

  it('pushed authorization requests are off unless enabled, and bounded like the rest when on', async () => {
    const off = await start();
    const clientId = await register(off.origin, [REDIRECT]);
    const form = new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: off.url });
    expect((await fetch(`${off.origin}/oauth/par`, { method: 'POST', body: form })).status).toBe(404);
    const metadata = (await (await fetch(`${off.origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.pushed_authorization_request_endpoint).toBeUndefined();

    const on = await start({ pushedAuthorizationRequests: true, anonymous: { maxRequestsPerClient: 3 } });
    const client = await register(on.origin, [REDIRECT]);
    const pushed = new URLSearchParams({ client_id: client, response_type: 'code', redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: on.url });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${on.origin}/oauth/par`, { method: 'POST', body: pushed })).status);
    // The registration counted too: 3 requests per window.
    expect(statuses).toEqual([201, 201, 429]);
  });

  describe('on Redis', () => {
    let redis: RedisProcess;
    let connection: Redis;
    beforeAll(async () => {
      redis = await startRedis();
      connection = new Redis(redis.url);
    });
    afterAll(async () => {
      connection?.disconnect();
      await redis?.stop();
    });

    it('registrations never used for a grant expire after one window, and the bounds are counted in Redis (shared by every instance)', async () => {
      const store: AuthStore = new RedisAuthStore(connection, { prefix: 'flood:' });
      const options = { store, anonymous: { window: 600, maxBytes: 340 * 1024 } };
      const one = await start(options);
      const two = await start(options);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await registerFrom(`127.0.2.${i + 1}`, one.origin, i)).status);
      for (let i = 4; i < 8; i++) statuses.push((await registerFrom(`127.0.2.${i + 1}`, two.origin, i)).status);
      // 340 KiB in all per window: six registrations of 50 KB, on either instance.
      expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 503, 503]);
      const clients = await connection.keys('flood:auth:*Client:*');
      expect(clients).toHaveLength(6);
      for (const key of clients) {
        const ttl = await connection.ttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(600);
      }
      // Redis holds about what was admitted: the six registrations, not 56 KiB each for 90 days per attempt.
      const bytes = (await Promise.all((await connection.keys('flood:*')).map((key) => connection.call('MEMORY', 'USAGE', key)))).reduce<number>((n, b) => n + Number(b), 0);
      expect(bytes).toBeLessThan(2 * 340 * 1024);
    });
  });

  it('metadata comes from the issuer, never the Host or X-Forwarded-Host; a foreign Host gets what /mcp gives it; metadata is cached', async () => {
    const { url, origin } = await start({ proxy: true });
    const port = new URL(origin).port;
    for (const path of ['/.well-known/oauth-authorization-server', '/oauth/register']) {
      const foreign = await from('127.0.0.1', `${origin}${path}`, { method: path.endsWith('register') ? 'POST' : 'GET', headers: { host: 'attacker.example', 'content-type': 'application/json' }, body: path.endsWith('register') ? '{}' : undefined });
      const mcp = await from('127.0.0.1', url, { method: 'POST', headers: { host: 'attacker.example', 'content-type': 'application/json' }, body: '{}' });
      expect({ path, status: foreign.status, body: foreign.body }).toEqual({ path, status: mcp.status, body: mcp.body });
      expect(foreign.status).toBe(403);
    }
    // An allowed Host that is not the issuer's (localhost for 127.0.0.1), and a forged X-Forwarded-Host: the issuer's endpoints all the same.
    const metadata = await from('127.0.0.1', `${origin}/.well-known/oauth-authorization-server`, { headers: { host: `localhost:${port}`, 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' } });
    expect(metadata.status).toBe(200);
    const document = JSON.parse(metadata.body) as Record<string, string>;
    expect({ issuer: document.issuer, token: document.token_endpoint, authorize: document.authorization_endpoint, register: document.registration_endpoint }).toEqual({
      issuer: origin,
      token: `${origin}/oauth/token`,
      authorize: `${origin}/oauth/authorize`,
      register: `${origin}/oauth/register`,
    });
    expect(metadata.headers['cache-control']).toBe('public, max-age=3600');
    // A foreign Origin on a call of the endpoints: the endpoint's 403.
    const foreignOrigin = await from('127.0.0.1', `${origin}/oauth/register`, { method: 'POST', headers: { origin: 'https://attacker.example', 'content-type': 'application/json' }, body: '{}' });
    expect(foreignOrigin.status).toBe(403);
  });
});
