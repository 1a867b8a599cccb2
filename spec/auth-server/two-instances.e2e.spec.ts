import 'reflect-metadata';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import Redis from 'ioredis';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { oidcUpstream, RedisAuthStore } from 'mcp-reflect/auth-server';
import { RedisSessionStore } from 'mcp-reflect/redis';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { AppClientProvider, browse, SignInModule, startUpstream, tokenRequest, type Upstream } from './support';

const REDIRECT = 'http://127.0.0.1:47600/callback';

/** A round-robin load balancer on loopback: each request (any path) to the next instance, bodies and streams piped. */
async function startBalancer(): Promise<{ origin: string; targets: URL[]; served: number[]; close(): Promise<void> }> {
  const targets: URL[] = [];
  const served: number[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    const index = next++ % targets.length;
    served[index] = (served[index] ?? 0) + 1;
    const target = targets[index];
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent: false }, (answer: IncomingMessage) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      res.on('close', () => answer.destroy());
    });
    upstream.on('error', () => res.headersSent || res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    targets,
    served,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/**
 * Two instances behind one load balancer, sharing Redis and the same keys: every step of the sign-in (the
 * authorization request, the upstream callback, consent, the code, the refresh) may land on either.
 */
describe('two instances of the authorization server on Redis', () => {
  let redis: RedisProcess;
  let upstream: Upstream;
  let balancer: Awaited<ReturnType<typeof startBalancer>>;
  const instances: { app: McpApplication; client: Redis }[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startUpstream();
    balancer = await startBalancer();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keys = {
      signing: [{ ...privateKey.export({ format: 'jwk' }), kid: 'shared-1', alg: 'ES256', use: 'sig' }],
      cookies: [randomBytes(32).toString('base64url')],
      upstreamTokens: randomBytes(32).toString('base64url'),
    };
    for (let i = 0; i < 2; i++) {
      const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      const app = await McpFactory.create(SignInModule);
      await app.listen({
        transport: 'http',
        port: 0,
        sessionStore: new RedisSessionStore(client, { prefix: 'signin:' }),
        auth: {
          resource: `${balancer.origin}/mcp`,
          scopesSupported: ['notes:read'],
          server: {
            issuer: balancer.origin,
            upstream: oidcUpstream({ name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret }),
            store: new RedisAuthStore(client, { prefix: 'signin:' }),
            keys,
          },
        },
      });
      instances.push({ app, client });
      balancer.targets.push(new URL(await app.getUrl()));
    }
    upstream.register(`${balancer.origin}/oauth/callback`);
  }, 30_000);
  afterAll(async () => {
    await balancer?.close();
    for (const { app, client } of instances) {
      await app.close();
      client.disconnect();
    }
    await upstream?.close();
    await redis?.stop();
  });

  it('registers on one, signs in across both, and the tokens and refresh work on either', async () => {
    const url = `${balancer.origin}/mcp`;
    const provider = new AppClientProvider(REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await expect(new Client({ name: 'lb', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const { url: callback } = await browse(provider.redirects[0], REDIRECT);
    expect(callback.searchParams.get('code')).toBeTruthy();
    await transport.finishAuth(callback.searchParams);
    expect(balancer.served.every((n) => n > 3)).toBe(true);

    const client = new Client({ name: 'lb', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    for (let i = 0; i < 4; i++) {
      const who = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent;
      expect(who).toMatchObject({ subject: 'alice', email: 'alice@example.com' });
      // The sealed upstream token, kept by the instance that signed the user in, opens on both.
      expect((await client.callTool({ name: 'upstreamProfile', arguments: {} })).structuredContent).toMatchObject({ hasToken: true, differs: true });
    }
    await client.close();

    // Refresh rotation across instances: the new refresh token works; the old one, anywhere, revokes the family.
    const clientId = provider.info!.client_id;
    const first = await tokenRequest(balancer.origin, { grant_type: 'refresh_token', refresh_token: provider.stored!.refresh_token!, client_id: clientId });
    expect(first.status).toBe(200);
    expect(await tokenRequest(balancer.origin, { grant_type: 'refresh_token', refresh_token: provider.stored!.refresh_token!, client_id: clientId })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await tokenRequest(balancer.origin, { grant_type: 'refresh_token', refresh_token: String(first.body.refresh_token), client_id: clientId })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});
