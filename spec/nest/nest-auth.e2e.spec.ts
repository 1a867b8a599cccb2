import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';
import { appModule } from './fixtures';

/** The OAuth resource server inside Nest: bearer tokens (RFC 6750), audience binding, RFC 9728 metadata at the origin. */
const RESOURCE = 'https://mcp.example.test/api/mcp';

describe.each(['express', 'fastify'] as const)('mcp-reflect/nest with http.auth (%s)', (platform) => {
  let as: AuthorizationServer;
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    as = await startAuthorizationServer({ scopes: ['admin'] });
    const module = appModule({ name: 'nest-auth', version: '1.0.0', http: { auth: { issuer: as.issuer, resource: RESOURCE, scopesSupported: ['admin'] } } });
    app =
      platform === 'express'
        ? await NestFactory.create(module, { logger: false, forceCloseConnections: true })
        : await NestFactory.create(module, new FastifyAdapter({ forceCloseConnections: true }), { logger: false });
    app.setGlobalPrefix('api');
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await as?.close();
  });

  it('publishes the protected resource metadata at the origin, outside the global prefix', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(base + path);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ resource: RESOURCE, authorization_servers: [as.issuer] });
    }
  });

  it('answers 401 with a challenge without a token, and serves a token for this resource', async () => {
    const refused = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/api/mcp"');
    const token = await as.token({ scope: 'admin', resource: RESOURCE });
    const client = new Client({ name: 'nest-auth', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    // The roles guard reads ctx.auth, which the verified token gives.
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('secret');
    await client.close();
    const other = await as.token({ scope: 'admin', resource: 'https://elsewhere.example.test/mcp' });
    const wrongAudience = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${other}` }, body: '{}' });
    expect(wrongAudience.status).toBe(401);
  });
});
