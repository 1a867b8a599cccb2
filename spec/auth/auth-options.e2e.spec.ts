import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  AuthUnavailableError,
  BootstrapErrorCode,
  Injectable,
  InvalidTokenError,
  McpFactory,
  McpModule,
  Module,
  Param,
  Scopes,
  Tool,
  type AuthOptions,
  type McpApplication,
  type McpAuth,
} from 'mcp-reflect';
import { answer } from '../support/clients';
import { initializeBody, JSON_AND_SSE } from '../support/http-helpers';

@Injectable()
class Notes {
  @Tool()
  @Scopes('notes:read')
  readNotes(): string {
    return 'notes';
  }

  @Tool()
  @Scopes('notes:read', 'notes:write')
  writeNote(@Param() text: string): string {
    return `saved ${text}`;
  }
}

const warnings: string[] = [];
@Module({ imports: [McpModule.forRoot({ name: 'opts', version: '1.0.0', logger: { error() {}, warn: (m) => void warnings.push(m) } })], providers: [Notes] })
class NotesModule {}

/** A verifier of our own: the token `alice.reader` is alice with notes:read, `alice.writer` with both scopes; for `aud`. */
const verifyFor =
  (aud: string): AuthOptions['verify'] =>
  async (token: string): Promise<McpAuth> => {
    if (token === 'boom') throw new Error('connection to db://admin:hunter2@10.0.0.5 refused at Verifier.check (/srv/app/verify.ts:12)');
    if (token === 'revoked') throw new InvalidTokenError('The access token was revoked.');
    if (token === 'down') throw new AuthUnavailableError('the session database is down');
    const [subject, role] = token.split('.');
    const scope = role === 'writer' ? 'notes:read notes:write' : 'notes:read';
    const claims = { sub: subject, aud, iss: 'https://as.example.com', exp: Math.floor(Date.now() / 1000) + 60, scope };
    return { subject, clientId: 'cli', scopes: claims.scope.split(' ').filter(Boolean), expiresAt: claims.exp, issuer: claims.iss, claims, token };
  };

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

describe('auth options', () => {
  const apps: McpApplication[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
  });
  const app = async () => {
    const created = await McpFactory.create(NotesModule);
    apps.push(created);
    return created;
  };

  it.each([
    [{ issuer: 'https://as.example.com', algorithms: ['RS256', 'HS256'] }, /HS256 cannot be accepted: 'none' is unsigned, and HMAC with keys from a JWKS lets anyone sign with the public key/],
    [{ issuer: 'https://as.example.com', algorithms: ['none'] }, /none cannot be accepted/],
    [{ issuer: 'as.example.com' }, /issuer must be the authorization server's issuer URL \(got "as.example.com"\)/],
    [{ issuer: 'https://as.example.com', requiredScopes: ['notes read'] }, /"notes read" is not a valid OAuth scope/],
    [{ issuer: 'https://as.example.com', verify: async () => ({}) as McpAuth, introspection: { endpoint: 'https://as.example.com/i', clientId: 'a', clientSecret: 'b' } }, /verify and introspection are both given/],
  ])('refuses unsafe or invalid options at listen(): %j', async (auth, message) => {
    const server = await app();
    const failure = server.listen({ transport: 'http', port: 0, auth: auth as AuthOptions });
    await expect(failure).rejects.toMatchObject({ code: BootstrapErrorCode.InvalidAuthOptions, message: expect.stringMatching(message) });
    await expect(failure).rejects.toThrow(/Fix: /);
  });

  it('asks createHttpHandler() for the resource it is reached at', async () => {
    const server = await app();
    expect(() => server.createHttpHandler({ auth: { issuer: 'https://as.example.com' } })).toThrow(/createHttpHandler\(\) and createFetchHandler\(\) do not know the URL clients reach them at[\s\S]*Fix: give it as auth.resource/);
  });

  it('refuses a scope that is not an OAuth scope-token, naming the class and method', async () => {
    @Injectable()
    class Bad {
      @Tool()
      @Scopes('notes read')
      oops(): string {
        return '';
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'bad', version: '1.0.0' })], providers: [Bad] })
    class BadModule {}
    await expect(McpFactory.create(BadModule)).rejects.toMatchObject({
      code: BootstrapErrorCode.InvalidScope,
      message: expect.stringContaining('Cannot use the scope "notes read" in @Scopes() on Bad.oops'),
    });
  });

  describe('a handler mounted in your own server, with a verifier of your own', () => {
    let server: Server;
    let url: string;
    const resource = 'https://mcp.example.com/mcp';

    beforeAll(async () => {
      const notes = await app();
      const handler = notes.createHttpHandler({
        auth: { issuer: 'https://as.example.com', resource, verify: verifyFor(resource), insufficientScope: 'error', scopesSupported: ['notes:read', 'notes:write'] },
      });
      expect(handler.metadataPaths).toEqual(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']);
      server = createServer((req, res) => void handler(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('serves the metadata of the configured resource', async () => {
      const response = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
      expect(await response.json()).toEqual({
        resource,
        authorization_servers: ['https://as.example.com'],
        bearer_methods_supported: ['header'],
        scopes_supported: ['notes:read', 'notes:write'],
      });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const challenge = (await fetch(url, { method: 'POST', headers: JSON_AND_SSE, body: initializeBody() })).headers.get('www-authenticate');
      expect(challenge).toBe('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="notes:read notes:write"');
    });

    it("with insufficientScope: 'error', answers a call lacking a scope in MCP (isError), not with 403", async () => {
      const client = await connect(url, 'alice.reader');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['readNotes']);
      expect(answer(await client.callTool({ name: 'writeNote', arguments: { text: 'x' } }))).toEqual({
        text: "Insufficient scope: the tool 'writeNote' needs the scopes notes:read notes:write, which the access token does not grant. Ask the authorization server for them.",
        isError: true,
      });
      expect(answer(await client.callTool({ name: 'readNotes', arguments: {} })).text).toBe('notes');
      await client.close();
    });

    it("keeps a verifier's own failure to itself, and passes an InvalidTokenError's message on", async () => {
      const boom = await fetch(url, { method: 'POST', headers: { ...JSON_AND_SSE, authorization: 'Bearer boom' }, body: initializeBody() });
      expect(boom.status).toBe(401);
      expect(await boom.json()).toEqual({ error: 'invalid_token', error_description: 'The access token is invalid.' });
      const revoked = await fetch(url, { method: 'POST', headers: { ...JSON_AND_SSE, authorization: 'Bearer revoked' }, body: initializeBody() });
      expect(await revoked.json()).toEqual({ error: 'invalid_token', error_description: 'The access token was revoked.' });
      expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token", error_description="The access token was revoked."');
      // A verifier whose backend is down asks the client to retry (503), not to throw its token away (401).
      const down = await fetch(url, { method: 'POST', headers: { ...JSON_AND_SSE, authorization: 'Bearer down' }, body: initializeBody() });
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'Authorization is temporarily unavailable: retry shortly.' });
      expect(warnings.join('\n')).toContain('HTTP auth: cannot verify tokens: the session database is down');
    });

    it('refuses a token of a verifier of its own that was meant for another resource (audience)', async () => {
      const other = await McpFactory.create(NotesModule);
      apps.push(other);
      const handler = other.createHttpHandler({ auth: { issuer: 'https://as.example.com', resource, verify: verifyFor('https://other.example.com/mcp') } });
      const srv = createServer((req, res) => void handler(req, res));
      await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
      const response = await fetch(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/mcp`, {
        method: 'POST',
        headers: { ...JSON_AND_SSE, authorization: 'Bearer alice.reader' },
        body: initializeBody(),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'invalid_token', error_description: 'The access token was not issued for this server (audience).' });
      await new Promise((resolve) => srv.close(resolve));
    });
  });

  it('answers 503 (retry, not re-authenticate) when the issuer cannot be reached, and logs why', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const server = await app();
    await server.listen({ transport: 'http', port: 0, auth: { issuer } });
    // A well-formed JWT from that issuer: its keys must be fetched, and cannot be.
    const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const token = `${encode({ alg: 'ES256', kid: 'k' })}.${encode({ iss: issuer, exp: 9e9 })}.${Buffer.from('sig').toString('base64url')}`;
    warnings.length = 0;
    const response = await fetch(await server.getUrl(), { method: 'POST', headers: { ...JSON_AND_SSE, authorization: `Bearer ${token}` }, body: initializeBody() });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'Authorization is temporarily unavailable: retry shortly.' });
    expect(warnings.join('\n')).toMatch(/HTTP auth: cannot verify tokens: no metadata found for the issuer/);
  });
});
