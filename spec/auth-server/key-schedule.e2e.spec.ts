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
          keys: { upstreamTokens: SEALING, rotation: { every: 4, publishAhead: 2 } },
          ttl: { accessToken: 3 },
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
    const [a, b] = [await start(), await start()];
    const first = await token(a);
    expect((await token(b)).kid).toBe(first.kid);
    expect(await jwks(a)).toEqual(await jwks(b));
    // Past `every - publishAhead` (2 s), a next key is made and published, not signing yet.
    await new Promise((resolve) => setTimeout(resolve, 2_800));
    const published = await jwks(a);
    expect(published).toContain(first.kid);
    expect(published.length).toBeGreaterThanOrEqual(2);
    expect(await jwks(b)).toEqual(published);
    // Then it signs, on both; the token the old key signed is still accepted while it lives.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const second = await token(a);
    expect(second.kid).not.toBe(first.kid);
    expect((await token(b)).kid).toBe(second.kid);
    expect(published).toContain(second.kid);
    expect(await accepted(b, second.token)).toBe(true);
  }, 30_000);
});
