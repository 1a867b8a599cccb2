/**
 * An auth spec of a user's project: an HTTP server verifying JWT access tokens (jose, ESM-only, loaded by the
 * library) under the documented jest set-up, which has no transform for jose (issue 28: no extra transform).
 */
export const authSpec = `import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, sign } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpFactory } from 'mcp-reflect';
import { AppModule } from './app.module.js';

const b64 = (value: object | Buffer) => Buffer.from(value instanceof Buffer ? value : JSON.stringify(value)).toString('base64url');

describe('the converter behind bearer auth', () => {
  it('serves a caller whose JWT the server verifies, and refuses one without a token', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
    const jwks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const issuer = \`http://127.0.0.1:\${(jwks.address() as AddressInfo).port}\`;
    const app = await McpFactory.create(AppModule);
    try {
      await app.listen({ transport: 'http', port: 0, auth: { issuer, jwksUri: \`\${issuer}/jwks\` } });
      const url = await app.getUrl();
      const now = Math.floor(Date.now() / 1000);
      const header = b64({ alg: 'RS256', typ: 'at+jwt', kid: 'k1' });
      const payload = b64({ iss: issuer, aud: url, sub: 'ada', client_id: 'spec', iat: now, exp: now + 300 });
      const token = \`\${header}.\${payload}.\${b64(sign('sha256', Buffer.from(\`\${header}.\${payload}\`), privateKey))}\`;
      const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(refused.status).toBe(401);
      const client = new Client({ name: 'auth-spec', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: \`Bearer \${token}\` } } }));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('convert');
      await client.close();
    } finally {
      await app.close();
      jwks.close();
    }
    // An RSA key, a bootstrap and jose's first load: more than jest's 5 s default on a busy 2-core machine.
  }, 30_000);
});
`;
