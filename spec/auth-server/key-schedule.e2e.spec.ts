import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import * as jose from 'jose';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { MemoryAuthStore } from 'mcp-reflect/auth-server';
import { SignInModule, startUpstream, type Upstream } from './support';

/**
 * Signing keys on a schedule (issue 44, item 4): `keys.rotation` makes a new key every `every` seconds, shared by
 * the instances on one store (one key at a time, whichever instance makes it), published before it signs, the old
 * one still verifying the tokens it signed until they expire.
 */
describe('keys.rotation: signing keys rotated on a schedule, across instances', () => {
  let upstream: Upstream;
  const apps: McpApplication[] = [];
  const store = new MemoryAuthStore();
  const SEALING = randomBytes(32).toString('base64');
  const SECRET = randomBytes(32).toString('base64url');

  const start = async () => {
    const app = await McpFactory.create(SignInModule);
    await app.listen({
      transport: 'http',
      port: 0,
      auth: {
        resource: 'http://mcp.example.test/mcp',
        scopesSupported: ['read'],
        server: {
          issuer: 'http://issuer.example.test',
          upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret },
          store,
          keys: { upstreamTokens: SEALING, rotation: { every: 8, publishAhead: 4 } },
          ttl: { accessToken: 30 },
          machineClients: { clients: [{ clientId: 'ci', clientSecret: SECRET, scopes: ['read'] }] },
        },
      },
    });
    apps.push(app);
    return new URL(await app.getUrl()).origin;
  };
  const jwks = async (origin: string) => ((await (await fetch(`${origin}/oauth/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
  const token = async (origin: string) => {
    const response = await fetch(`${origin}/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`ci:${SECRET}`).toString('base64')}` }, body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'read' }) });
    const { access_token } = (await response.json()) as { access_token: string };
    return { token: access_token, kid: jose.decodeProtectedHeader(access_token).kid! };
  };
  const accepted = async (origin: string, bearer: string) =>
    (await fetch(`${origin}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: 'mcp.example.test' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) })).status !== 401;

  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await upstream?.close();
  });

  it('signs with one key on every instance, publishes the next before it signs, and keeps the old one until its tokens expire', async () => {
    // The ring's first key is made at `started`; the next within +4–5 s (every 8 − publishAhead 4, checked each
    // second), signing from +8–9 s, each instance switching at its next check (by +10 s); the one after that is made
    // by +9 s and signs from +12 s. Each step below waits for a point inside those windows.
    const started = Date.now();
    const until = (seconds: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, started + seconds * 1000 - Date.now())));
    const [a, b] = [await start(), await start()];
    const first = await token(a);
    expect((await token(b)).kid).toBe(first.kid);
    expect(await jwks(a)).toEqual(await jwks(b));
    // +6 s: the next key is published on both, and does not sign yet.
    await until(6);
    const published = await jwks(a);
    expect(published).toContain(first.kid);
    expect(published).toHaveLength(2);
    expect(await jwks(b)).toEqual(published);
    expect((await token(b)).kid).toBe(first.kid);
    // +11 s: it signs, on both; the old key still verifies the token it signed.
    await until(11);
    const second = await token(a);
    expect(second.kid).not.toBe(first.kid);
    expect(published).toContain(second.kid);
    expect((await token(b)).kid).toBe(second.kid);
    expect(await accepted(b, second.token)).toBe(true);
    expect(await accepted(a, first.token)).toBe(true);
    expect(await jwks(b)).toContain(first.kid);
  }, 40_000);
});
