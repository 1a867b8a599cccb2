import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import * as jose from 'jose';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { NotesAuthModule } from '../../samples/notes-auth/notes-auth.module';
import { appModule } from '../nest/fixtures';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';
import { dpopFetch, dpopKey, type DpopKey } from './dpop-support';

/**
 * DPoP with an external authorization server (oidc-provider in its own process, DPoP on as it is by default): a
 * machine client makes a key with jose, gets a DPoP-bound token by client credentials with a proof (RFC 9449 §5),
 * and the SDK client calls tools with a proof per request — over the fetch handler (with server nonces, behind a
 * TLS-terminating proxy), Node HTTP, and the Nest route (Express and Fastify).
 */
describe('DPoP end to end: an external authorization server, the SDK client, every transport', () => {
  let as: AuthorizationServer;
  let key: DpopKey;
  const apps: McpApplication[] = [];

  beforeAll(async () => {
    [as, key] = await Promise.all([startAuthorizationServer(), dpopKey()]);
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await as?.close();
  });

  /** A client-credentials token for `resource`, bound to `key` by the proof sent with the request. */
  const boundToken = async (resource: string, scope = 'notes:read'): Promise<string> => {
    const response = await fetch(as.tokenEndpoint, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${as.clientId}:${as.clientSecret}`).toString('base64')}`, dpop: await key.proof({ htu: as.tokenEndpoint }) },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
    });
    const body = (await response.json()) as { access_token: string; token_type: string };
    expect({ status: response.status, type: body.token_type, cnf: jose.decodeJwt(body.access_token).cnf }).toEqual({ status: 200, type: 'DPoP', cnf: { jkt: key.jkt } });
    return body.access_token;
  };

  it('the fetch handler behind a TLS-terminating proxy, with server nonces: proofs name the public URL', async () => {
    const app = await McpFactory.create(NotesAuthModule);
    apps.push(app);
    const resource = 'https://mcp.example.test/mcp';
    const handler = app.createFetchHandler({ path: '/mcp', auth: { issuer: as.issuer, resource, dpop: { nonce: true } } });
    const token = await boundToken(resource);
    // The proxy forwards https://mcp.example.test/mcp to http://10.0.0.7:8080/mcp, the URL the handler's Request has.
    const internal = (input: string | URL | Request, init?: RequestInit) => handler(new Request(String(input).replace('https://mcp.example.test', 'http://10.0.0.7:8080'), init), { remoteAddress: '10.0.0.1' });
    const fetchWithProofs = dpopFetch(key, () => token, internal);
    const client = new Client({ name: 'machine', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { fetch: fetchWithProofs }));
    try {
      expect(fetchWithProofs.nonces).toHaveLength(1); // the first request was answered use_dpop_nonce, then served
      expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toMatchObject({ clientId: as.clientId, scopes: ['notes:read'] });
      expect((await client.callTool({ name: 'listNotes', arguments: {} })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
    // The internal URL is not the one a proof may name: the proxy's Host is not trusted.
    const wrong = dpopFetch(key, () => token, internal, (url) => url.href.replace('https://mcp.example.test', 'http://10.0.0.7:8080'));
    const answer = await wrong(resource, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect({ status: answer.status, body: await answer.json() }).toEqual({
      status: 401,
      body: { error: 'invalid_dpop_proof', error_description: 'The DPoP proof is for another URL (htu must be the URL of this request, without query or fragment).' },
    });
  });

  it('Node HTTP (listen)', async () => {
    const app = await McpFactory.create(NotesAuthModule);
    apps.push(app);
    await app.listen({ transport: 'http', port: 0, auth: { issuer: as.issuer, dpop: true } });
    const url = await app.getUrl();
    const token = await boundToken(url);
    const client = new Client({ name: 'machine', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: dpopFetch(key, () => token) }));
    try {
      expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toMatchObject({ clientId: as.clientId });
    } finally {
      await client.close();
    }
  });

  it.each(['express', 'fastify'] as const)('the Nest route (%s, global prefix), proofs naming the public URL', async (platform) => {
    const resource = 'https://mcp.example.test/api/mcp';
    const module = appModule({ name: 'nest-dpop', version: '1.0.0', warnings: { unprovidedComponents: false }, http: { auth: { issuer: as.issuer, resource, scopesSupported: ['notes:read'], dpop: true } } });
    const nest: INestApplication =
      platform === 'express'
        ? await NestFactory.create(module, { logger: false, forceCloseConnections: true })
        : await NestFactory.create(module, new FastifyAdapter({ forceCloseConnections: true }), { logger: false });
    nest.setGlobalPrefix('api');
    await nest.listen(0, '127.0.0.1');
    try {
      const base = (await nest.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
      const token = await boundToken(resource);
      const client = new Client({ name: 'machine', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { fetch: dpopFetch(key, () => token, fetch, (url) => `https://mcp.example.test${url.pathname}`) }));
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
      const asBearer = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
      expect(asBearer.status).toBe(401);
      expect(asBearer.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token".*, DPoP algs="/);
    } finally {
      await nest.close();
    }
  }, 30_000);
});
