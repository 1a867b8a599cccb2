import 'reflect-metadata';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { NotesAuthModule } from '../../samples/notes-auth/notes-auth.module';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';
import { initializeBody, JSON_AND_SSE } from '../support/http-helpers';

/** A key rotated in right after the server fetched the keys: its first token is accepted all the same. */
describe('signing key rotation at the authorization server', () => {
  let as: AuthorizationServer;
  let app: McpApplication;
  let url: string;

  beforeAll(async () => {
    as = await startAuthorizationServer();
    app = await McpFactory.create(NotesAuthModule);
    await app.listen({ transport: 'http', port: 0, auth: { issuer: as.issuer } });
    url = await app.getUrl();
  });
  afterAll(async () => {
    await app?.close();
    await as?.close();
  });

  const initialize = (token: string) =>
    fetch(url, { method: 'POST', headers: { ...JSON_AND_SSE, authorization: `Bearer ${token}` }, body: initializeBody() });

  it('accepts a token signed with a key published a moment after the last fetch of the keys', async () => {
    const before = await as.token({ scope: 'notes:read', resource: url });
    expect((await initialize(before)).status).toBe(200); // the server has just fetched the keys
    await as.rotateKeys();
    const after = await as.token({ scope: 'notes:read', resource: url });
    expect((await initialize(after)).status).toBe(200);
    expect((await initialize(before)).status).toBe(200); // the old key is still published
  });

  it('still refuses a key id the authorization server never published', async () => {
    const forged = await as.sign({ iss: as.issuer, aud: url, exp: Math.floor(Date.now() / 1000) + 60, sub: 'x', scope: 'notes:read' }, 'never-published');
    const response = await initialize(forged);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid_token', error_description: 'The access token is signed with a key this server does not know.' });
  });
});
