import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { startAuthorizationServer } from '../support/authorization-server';
import { startUpstream } from '../auth-server/upstream';
import { appModule, listenNest } from './fixtures';

/**
 * `http: { mount: 'server' }`: the endpoint answers from the Node HTTP server's request listener, ahead of Express
 * or Fastify (Nest's middleware, global prefix and body parser never see its requests), while every other request
 * reaches the Nest application as before.
 */
const text = (result: unknown) => ((result as { content: { text: string }[] }).content ?? [])[0]?.text;
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };

type Platform = 'express' | 'fastify';

function serve(platform: Platform, http: Record<string, unknown>, prepare?: (app: INestApplication) => void) {
  return listenNest(appModule({ name: 'nest-server-mount', version: '1.0.0', http: { mount: 'server', ...http } }), platform, prepare);
}

describe.each<Platform>(['express', 'fastify'])("mcp-reflect/nest with http.mount 'server' (%s)", (platform) => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('serves the endpoint ahead of the framework, in both eras, while the REST routes, their prefix and middleware stay Nest\'s', async () => {
    const seen: string[] = [];
    const served = await serve(platform, {}, (nest) => {
      nest.setGlobalPrefix('api');
      nest.use((req: { url: string }, _res: unknown, next: () => void) => (seen.push(req.url), next()));
    });
    app = served.app;
    for (const era of [undefined, '2026-07-28'] as const) {
      const client = new Client({ name: 'server-mount', version: '1.0.0' }, era ? { versionNegotiation: { mode: { pin: era } } } : {});
      await client.connect(new StreamableHTTPClientTransport(new URL(`${served.base}/mcp?from=spec`)));
      expect(text(await client.callTool({ name: 'greet', arguments: { name: era ?? 'legacy' } }))).toBe(`Hello, ${era ?? 'legacy'}`);
      await client.close();
    }
    // Nest still answers everything else: its routes under the prefix (sharing the tools' service), its 404s.
    expect(await (await fetch(`${served.base}/api/greetings`)).json()).toEqual(['legacy', '2026-07-28']);
    expect((await fetch(`${served.base}/api/mcp`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${served.base}/mcpx`)).status).toBe(404);
    expect(seen.some((url) => url.startsWith('/api/greetings'))).toBe(true);
    expect(seen.filter((url) => url.startsWith('/mcp?') || url === '/mcp')).toEqual([]); // no Nest middleware ran for MCP
  });

  it("leaves the framework's request listeners in place, wrapped: listed as they were and removable by their own reference", async () => {
    const served = await serve(platform, {});
    app = served.app;
    const server = served.app.getHttpServer() as import('node:http').Server;
    const listed = server.listeners('request');
    expect(listed).toHaveLength(1);
    // Express's listener is the Express application itself; Fastify's is its own routing function.
    if (platform === 'express') expect(listed[0]).toBe(served.app.getHttpAdapter().getInstance());
    expect(server.rawListeners('request')[0]).not.toBe(listed[0]); // the wrapper that answers the endpoint first
    expect((await fetch(`${served.base}/api-less-404`)).status).toBe(404); // the framework still answers the rest
    server.removeListener('request', listed[0] as never);
    expect(server.listenerCount('request')).toBe(0);
  });

  it('normalizes its path as Nest normalizes a route', async () => {
    const served = await serve(platform, { path: 'assistant/' });
    app = served.app;
    const client = new Client({ name: 'server-mount', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.base}/assistant`)));
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'path' } }))).toBe('Hello, path');
    await client.close();
    expect((await fetch(`${served.base}/mcp`, { method: 'POST' })).status).toBe(404);
  });

  it("reads and bounds bodies itself: the endpoint's own JSON-RPC errors, not Nest's body parser", async () => {
    const served = await serve(platform, { maxRequestBodySize: 2_048 });
    app = served.app;
    const post = (body: string) =>
      fetch(`${served.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
    const malformed = await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const large = await post(JSON.stringify({ ...initialize, padding: 'x'.repeat(4_096) }));
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('2048 bytes') } });
    const ok = await post(JSON.stringify(initialize));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('mcp-session-id')).toBeTruthy();
    await ok.body?.cancel();
  });

  it('publishes the protected resource metadata and verifies bearer tokens with http.auth', async () => {
    const as = await startAuthorizationServer({ scopes: ['admin'] });
    try {
      const resource = 'https://mcp.example.test/mcp';
      const served = await serve(platform, { auth: { issuer: as.issuer, resource, scopesSupported: ['admin'] } });
      app = served.app;
      const metadata = await fetch(`${served.base}/.well-known/oauth-protected-resource/mcp`);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toMatchObject({ resource, authorization_servers: [as.issuer] });
      const refused = await fetch(`${served.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      const token = await as.token({ scope: 'admin', resource });
      const client = new Client({ name: 'server-mount', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${served.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('secret'); // the roles guard reads ctx.auth
      await client.close();
    } finally {
      await app?.close();
      app = undefined;
      await as.close();
    }
  });

  it('serves the authorization server (http.auth.server) at the origin, beside the endpoint', async () => {
    const upstream = await startUpstream();
    try {
      const resource = 'https://mcp.example.test/mcp';
      const server = { upstream: { name: 'upstream', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret } };
      const served = await serve(platform, { auth: { resource, scopesSupported: ['notes:read'], server } });
      app = served.app;
      const metadata = await fetch(`${served.base}/.well-known/oauth-authorization-server`);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toMatchObject({ issuer: 'https://mcp.example.test', token_endpoint: expect.stringMatching(/\/oauth\/token$/) });
      const registered = await fetch(`${served.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' }),
      });
      expect(registered.status).toBe(201);
      expect(await registered.json()).toMatchObject({ client_id: expect.any(String) });
      expect((await fetch(`${served.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    } finally {
      await app?.close();
      app = undefined;
      await upstream.close();
    }
  });

  it('ends its sessions when Nest closes', async () => {
    const served = await serve(platform, {});
    const client = new Client({ name: 'server-mount', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.base}/mcp`)));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await served.app.close();
    await expect(client.listTools()).rejects.toThrow();
    await client.close().catch(() => {});
  });
});

describe("http.mount: what cannot work is refused at bootstrap, with the fix", () => {
  const bootstrap = async (http: Record<string, unknown>) => {
    const app = await NestFactory.create(appModule({ name: 'nest-server-mount', version: '1.0.0', http }), { logger: false, abortOnError: false });
    await app.close();
  };

  it("refuses Nest HTTP guards and identity with mount 'server', which would never run", async () => {
    const error = await bootstrap({ mount: 'server', guards: [class {}], identity: () => undefined }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/mount 'server'.*http\.guards and http\.identity would never run[\s\S]*Fix: .*http\.auth.*mount: 'route'/);
  });

  it('refuses an unknown mount, and an authorization server on a route', async () => {
    await expect(bootstrap({ mount: 'root' })).rejects.toThrow(/http\.mount is "root"[\s\S]*Fix: use 'route'/);
    const auth = { issuer: 'https://as.example.test', resource: 'https://mcp.example.test/mcp', server: {} };
    await expect(bootstrap({ auth })).rejects.toThrow(/http\.auth\.server[\s\S]*Fix: serve the endpoint with http: \{ mount: 'server'/);
  });
});
