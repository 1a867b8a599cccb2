import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { NotesAuthModule } from '../../samples/notes-auth/notes-auth.module';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';
import { initializeBody, JSON_AND_SSE } from '../support/http-helpers';

/** The resource server in front of the endpoint, against a real authorization server (oidc-provider). */
describe('HTTP authorization', () => {
  let as: AuthorizationServer;
  let app: McpApplication;
  let url: string;

  beforeAll(async () => {
    as = await startAuthorizationServer();
    app = await McpFactory.create(NotesAuthModule);
    await app.listen({ transport: 'http', port: 0, auth: { issuer: as.issuer, scopesSupported: ['notes:read', 'notes:write'] } });
    url = await app.getUrl();
  });
  afterAll(async () => {
    await app?.close();
    await as?.close();
  });

  const connect = async (token: string, protocolVersion?: '2026-07-28') => {
    const client = new Client({ name: 't', version: '1' }, protocolVersion ? { versionNegotiation: { mode: { pin: protocolVersion } } } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  };

  it('publishes the protected resource metadata at the path-suffixed and the bare well-known URL', async () => {
    const origin = new URL(url).origin;
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(origin + path);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: url,
        authorization_servers: [as.issuer],
        bearer_methods_supported: ['header'],
        scopes_supported: ['notes:read', 'notes:write'],
      });
    }
  });

  it('answers a request without a token 401 with a challenge pointing to the metadata', async () => {
    const response = await fetch(url, { method: 'POST', headers: JSON_AND_SSE, body: initializeBody() });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toContain(`resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('scope="notes:read notes:write"');
    expect(challenge).not.toContain('error=');
  });

  it('serves a valid token, showing only the components its scopes allow', async () => {
    const token = await as.token({ scope: 'notes:read', resource: url });
    const client = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['listNotes', 'whoami']);
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toMatchObject({ clientId: as.clientId, scopes: ['notes:read'] });
    await client.close();
  });

  it('answers a call that needs a missing scope 403 insufficient_scope naming the scopes (step-up)', async () => {
    const token = await as.token({ scope: 'notes:read', resource: url });
    const client = await connect(token);
    await expect(client.callTool({ name: 'addNote', arguments: { text: 'hi' } })).rejects.toThrow(/403|insufficient/i);
    await client.close();
  });

  it('serves both eras', async () => {
    const token = await as.token({ scope: 'notes:read notes:write', resource: url });
    const client = await connect(token, '2026-07-28');
    const added = await client.callTool({ name: 'addNote', arguments: { text: 'modern' } });
    expect(added.isError).toBeFalsy();
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['addNote', 'listNotes', 'whoami']);
    await client.close();
  });
});
