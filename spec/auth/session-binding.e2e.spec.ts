import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { NotesAuthModule } from '../../samples/notes-auth/notes-auth.module';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';
import { initializeBody, JSON_AND_SSE, messagesOf, peek, rawRequest, type RawResponse } from '../support/http-helpers';

const now = () => Math.floor(Date.now() / 1000);
const NOT_FOUND = {
  jsonrpc: '2.0',
  error: { code: -32001, message: 'Session not found: it expired or was terminated. Start a new session with initialize.' },
  id: null,
};

const sessionHeaders = (session: string, token: string) => ({
  ...JSON_AND_SSE,
  'mcp-session-id': session,
  'mcp-protocol-version': '2025-11-25',
  authorization: `Bearer ${token}`,
});
const streamHeaders = (session: string, token: string, lastEventId?: string) => ({
  accept: 'text/event-stream',
  'mcp-session-id': session,
  'mcp-protocol-version': '2025-11-25',
  authorization: `Bearer ${token}`,
  ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}),
});
const toolCall = (name: string, args: Record<string, unknown> = {}, id = 7) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** Opens a 2025 session with raw requests under `token`; returns its id. */
async function openSession(url: string, token: string): Promise<string> {
  const init = await rawRequest(url, { headers: { ...JSON_AND_SSE, authorization: `Bearer ${token}` }, body: initializeBody() });
  expect(init.status).toBe(200);
  const id = init.headers['mcp-session-id'] as string;
  const initialized = await rawRequest(url, { headers: sessionHeaders(id, token), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  expect(initialized.status).toBe(202);
  return id;
}

/** The refusal of a session request, as the client sees it: status, content type, JSON body, no session header. */
const refusal = (response: RawResponse) => ({
  status: response.status,
  contentType: response.headers['content-type'],
  session: response.headers['mcp-session-id'],
  body: (response.headers['content-type'] === 'application/json' ? JSON.parse(response.body) : response.body) as unknown,
});
const NOT_FOUND_REFUSAL = { status: 404, contentType: 'application/json', session: undefined, body: NOT_FOUND };

/**
 * 2025-era sessions belong to the issuer and subject of the token that opened them (a real authorization server
 * signs every token): another subject's valid token is answered as if the session did not exist, whatever it
 * tries (call, stream, resume, delete), while the owner goes on with any token of the same subject.
 */
describe('HTTP authorization: sessions bound to the subject', () => {
  let as: AuthorizationServer;
  let app: McpApplication;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    as = await startAuthorizationServer();
    app = await McpFactory.create(NotesAuthModule);
    await app.listen({ transport: 'http', port: 0, auth: { issuer: as.issuer, scopesSupported: ['notes:read', 'notes:write'] } });
    url = await app.getUrl();
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await app?.close();
    await as?.close();
  });

  /** A token the authorization server signs for `audience` (this server by default). */
  const tokenOf = (claims: Record<string, unknown>, audience = url) =>
    as.sign({ iss: as.issuer, aud: audience, iat: now(), exp: now() + 600, scope: 'notes:read notes:write', client_id: 'x', ...claims });

  const connect = async (token: string) => {
    const client = new Client({ name: 't', version: '1' });
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    await client.connect(transport);
    expect(transport.sessionId).toEqual(expect.any(String));
    return { client, session: transport.sessionId! };
  };

  describe('another subject on the session of alice (opened by the SDK client)', () => {
    let alice: Client;
    let session: string;
    let bob: string;

    beforeAll(async () => {
      ({ client: alice, session } = await connect(await tokenOf({ sub: 'alice' })));
      // Same client id, same scopes: only the subject differs.
      bob = await tokenOf({ sub: 'bob' });
    });

    it('answers a call exactly as for an unknown session id (404)', async () => {
      const unknown = refusal(await rawRequest(url, { headers: sessionHeaders(randomUUID(), bob), body: toolCall('addNote', { text: 'by bob' }) }));
      expect(unknown).toEqual(NOT_FOUND_REFUSAL);
      const stolen = await rawRequest(url, { headers: sessionHeaders(session, bob), body: toolCall('addNote', { text: 'by bob' }) });
      expect(refusal(stolen)).toEqual(unknown);
      // The call did not run: alice's session shows no note by bob.
      const notes = await alice.callTool({ name: 'listNotes', arguments: {} });
      expect(JSON.stringify(notes.structuredContent ?? notes.content)).not.toContain('by bob');
    });

    it('answers every kind of request the same way (notification, ping, batch)', async () => {
      const unknownId = randomUUID();
      for (const body of [
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]),
      ]) {
        const stolen = refusal(await rawRequest(url, { headers: sessionHeaders(session, bob), body }));
        const unknown = refusal(await rawRequest(url, { headers: sessionHeaders(unknownId, bob), body }));
        expect(stolen).toEqual(NOT_FOUND_REFUSAL);
        expect(stolen).toEqual(unknown);
      }
    });

    it('answers a GET (SSE stream) 404 as for an unknown session id', async () => {
      const stolen = await peek(url, streamHeaders(session, bob));
      const unknown = await peek(url, streamHeaders(randomUUID(), bob));
      expect(refusal(stolen)).toEqual(NOT_FOUND_REFUSAL);
      expect(refusal(stolen)).toEqual(refusal(unknown));
    });

    it('answers a DELETE 404 and leaves the session to alice', async () => {
      const stolen = await rawRequest(url, { method: 'DELETE', headers: streamHeaders(session, bob) });
      const unknown = await rawRequest(url, { method: 'DELETE', headers: streamHeaders(randomUUID(), bob) });
      expect(refusal(stolen)).toEqual(NOT_FOUND_REFUSAL);
      expect(refusal(stolen)).toEqual(refusal(unknown));
      const who = await alice.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toEqual({ subject: 'alice', clientId: 'x', scopes: ['notes:read', 'notes:write'] });
      const added = await alice.callTool({ name: 'addNote', arguments: { text: 'still mine' } });
      expect(added.isError).toBeFalsy();
      expect(added.structuredContent).toMatchObject({ text: 'still mine', author: 'alice' });
    });

    it("serves alice's session with a new token of hers (refreshed: other scopes, other client, later expiry)", async () => {
      const refreshed = await tokenOf({ sub: 'alice', client_id: 'y', scope: 'notes:read', exp: now() + 1200 });
      const response = await rawRequest(url, { headers: sessionHeaders(session, refreshed), body: toolCall('whoami') });
      expect(response.status).toBe(200);
      const [answer] = messagesOf(response.body);
      // Each request speaks with its own token: the session does not keep the one that opened it.
      expect(answer.result.structuredContent).toEqual({ subject: 'alice', clientId: 'y', scopes: ['notes:read'] });
      const addNote = await rawRequest(url, { headers: sessionHeaders(session, refreshed), body: toolCall('addNote', { text: 'no' }) });
      expect(addNote.status).toBe(403);
    });

    it('answers the subject of another issuer as another subject', async () => {
      const other = await startAuthorizationServer();
      const both = await McpFactory.create(NotesAuthModule);
      try {
        await both.listen({ transport: 'http', port: 0, auth: { issuer: [as.issuer, other.issuer] } });
        const bothUrl = await both.getUrl();
        const claims = { sub: 'alice', aud: bothUrl, iat: now(), exp: now() + 600, scope: 'notes:read', client_id: 'x' };
        const here = await as.sign({ ...claims, iss: as.issuer });
        const there = await other.sign({ ...claims, iss: other.issuer });
        const opened = await openSession(bothUrl, here);
        const call = (token: string) => rawRequest(bothUrl, { headers: sessionHeaders(opened, token), body: toolCall('whoami') });
        expect(refusal(await call(there))).toEqual(NOT_FOUND_REFUSAL);
        expect((await call(here)).status).toBe(200);
        // The other issuer's alice is served in a session of her own.
        const hers = await openSession(bothUrl, there);
        expect((await call(there)).status).toBe(404);
        expect((await rawRequest(bothUrl, { headers: sessionHeaders(hers, there), body: toolCall('whoami') })).status).toBe(200);
      } finally {
        await both.close();
        await other.close();
      }
    });
  });

  describe('resumption (Last-Event-ID)', () => {
    it("replays a session's events to its subject only", async () => {
      const alice = await tokenOf({ sub: 'alice' });
      const bob = await tokenOf({ sub: 'bob' });
      const session = await openSession(url, alice);
      const posted = await rawRequest(url, { headers: sessionHeaders(session, alice), body: toolCall('listNotes', {}, 11) });
      expect(posted.status).toBe(200);
      expect(posted.headers['content-type']).toBe('text/event-stream');
      const eventIds = [...posted.body.matchAll(/^id: (.+)$/gm)].map((m) => m[1].trim());
      expect(eventIds.length).toBeGreaterThanOrEqual(1);

      for (const lastEventId of [eventIds[0], 'made-up-event-id']) {
        const stolen = await peek(url, streamHeaders(session, bob, lastEventId));
        const unknown = await peek(url, streamHeaders(randomUUID(), bob, lastEventId));
        expect(refusal(stolen)).toEqual(NOT_FOUND_REFUSAL);
        expect(refusal(stolen)).toEqual(refusal(unknown));
      }
      // Alice herself resumes (nothing after the result to replay, but the stream is hers).
      const own = await peek(url, streamHeaders(session, alice, eventIds[eventIds.length - 1]));
      expect(own.status).toBe(200);
      expect(own.headers['content-type']).toBe('text/event-stream');
    });
  });

  describe('tokens without a subject (the client id owns the session)', () => {
    it('binds the session to the client id', async () => {
      const serviceA = await tokenOf({ client_id: 'svc-a' });
      const session = await openSession(url, serviceA);
      const call = async (token: string) => rawRequest(url, { headers: sessionHeaders(session, token), body: toolCall('whoami') });
      expect(refusal(await call(await tokenOf({ client_id: 'svc-b' })))).toEqual(NOT_FOUND_REFUSAL);
      const again = await call(await tokenOf({ client_id: 'svc-a', scope: 'notes:read' }));
      expect(again.status).toBe(200);
      expect(messagesOf(again.body)[0].result.structuredContent).toEqual({ clientId: 'svc-a', scopes: ['notes:read'] });
    });

    // Subjects and client ids are kept apart in a session's owner: the subject "client:svc-a" is not client svc-a.
    it('does not confuse a client id with a subject that spells it', async () => {
      const session = await openSession(url, await tokenOf({ client_id: 'svc-a' }));
      const lookalike = await tokenOf({ sub: 'client:svc-a', client_id: 'mallory' });
      const response = await rawRequest(url, { headers: sessionHeaders(session, lookalike), body: toolCall('whoami') });
      expect(response.status).toBe(404); // actual: 200, whoami answered for mallory in svc-a's session
      expect(refusal(response)).toEqual(NOT_FOUND_REFUSAL);
    });
  });

  describe('sessions per client, counted by subject (maxSessionsPerClient: 2)', () => {
    let capped: McpApplication;
    let cappedUrl: string;

    beforeAll(async () => {
      capped = await McpFactory.create(NotesAuthModule);
      await capped.listen({ transport: 'http', port: 0, maxSessionsPerClient: 2, auth: { issuer: as.issuer } });
      cappedUrl = await capped.getUrl();
    });
    afterAll(async () => {
      await capped?.close();
    });

    it("refuses alice's third session 429 while bob, from the same address, opens his", async () => {
      const alice = await tokenOf({ sub: 'alice' }, cappedUrl);
      const first = await openSession(cappedUrl, alice);
      await openSession(cappedUrl, await tokenOf({ sub: 'alice', scope: 'notes:read' }, cappedUrl)); // another token, same subject
      const third = await rawRequest(cappedUrl, { headers: { ...JSON_AND_SSE, authorization: `Bearer ${alice}` }, body: initializeBody() });
      expect(third.status).toBe(429);
      expect(third.headers['retry-after']).toBe('5');
      expect(third.headers['mcp-session-id']).toBeUndefined();
      expect(JSON.parse(third.body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Too many sessions from this client (at most 2): close one (DELETE with its Mcp-Session-Id) or reuse it.' },
        id: null,
      });

      const bob = await tokenOf({ sub: 'bob' }, cappedUrl);
      const bobs = [await openSession(cappedUrl, bob), await openSession(cappedUrl, bob)];
      expect(new Set(bobs).size).toBe(2);
      expect((await rawRequest(cappedUrl, { headers: { ...JSON_AND_SSE, authorization: `Bearer ${bob}` }, body: initializeBody() })).status).toBe(429);

      // Bob cannot free a place of alice's by deleting her session; alice can.
      expect((await rawRequest(cappedUrl, { method: 'DELETE', headers: streamHeaders(first, bob) })).status).toBe(404);
      expect((await rawRequest(cappedUrl, { headers: { ...JSON_AND_SSE, authorization: `Bearer ${alice}` }, body: initializeBody() })).status).toBe(429);
      expect((await rawRequest(cappedUrl, { method: 'DELETE', headers: streamHeaders(first, alice) })).status).toBe(200);
      expect(typeof (await openSession(cappedUrl, alice))).toBe('string');
    });
  });
});
