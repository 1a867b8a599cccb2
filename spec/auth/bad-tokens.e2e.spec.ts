import 'reflect-metadata';
import { createPublicKey, randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as jose from 'jose';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { NotesAuthModule } from '../../samples/notes-auth/notes-auth.module';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';
import { initializeBody, JSON_AND_SSE, messagesOf, peek, rawRequest, type RawResponse } from '../support/http-helpers';

type Era = '2025-11-25' | '2026-07-28';
const ERAS: readonly Era[] = ['2025-11-25', '2026-07-28'];

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The first request of a client of that era: `initialize` (2025), `server/discover` (2026-07-28). */
function opening(era: Era): { headers: Record<string, string>; body: string } {
  if (era === '2025-11-25') return { headers: JSON_AND_SSE, body: initializeBody() };
  return {
    headers: { ...JSON_AND_SSE, 'mcp-method': 'server/discover', 'mcp-protocol-version': '2026-07-28' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: MODERN_META } }),
  };
}

/** A request naming a component (the gate answers step-up before any session is looked up). */
function naming(era: Era, method: 'tools/call' | 'prompts/get' | 'resources/read', params: Record<string, unknown>) {
  const name = (params.name ?? params.uri) as string;
  const headers =
    era === '2025-11-25'
      ? { ...JSON_AND_SSE, 'mcp-protocol-version': '2025-11-25' }
      : { ...JSON_AND_SSE, 'mcp-method': method, 'mcp-name': name, 'mcp-protocol-version': '2026-07-28' };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method, params: era === '2025-11-25' ? params : { ...params, _meta: MODERN_META } });
  return { headers, body };
}

const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Flips one character in the middle of a base64url segment (never the last one, whose low bits may not count). */
function flip(segment: string): string {
  const at = Math.floor(segment.length / 2);
  return segment.slice(0, at) + (segment[at] === 'A' ? 'B' : 'A') + segment.slice(at + 1);
}

/**
 * Hand-made bad tokens against the resource server in front of the endpoint, with a real authorization server
 * (oidc-provider): each is refused with its status, a short reason and nothing of the server's internals, the same
 * way every time, and the server goes on serving valid tokens.
 */
describe('HTTP authorization: bad tokens', () => {
  let as: AuthorizationServer;
  let app: McpApplication;
  let url: string;
  let metadataUrl: string;
  /** Every public key the authorization server publishes (no response may echo one). */
  let jwks: jose.JWK[];
  const clients: Client[] = [];

  beforeAll(async () => {
    as = await startAuthorizationServer();
    app = await McpFactory.create(NotesAuthModule);
    await app.listen({ transport: 'http', port: 0, auth: { issuer: as.issuer, scopesSupported: ['notes:read', 'notes:write'] } });
    url = await app.getUrl();
    metadataUrl = `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`;
    jwks = ((await (await fetch(as.jwksUri)).json()) as { keys: jose.JWK[] }).keys;
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await app?.close();
    await as?.close();
  });

  /** Claims of a token the authorization server would issue for this server; `overrides` replace (undefined: remove). */
  const claims = (overrides: Record<string, unknown> = {}) => {
    const all: Record<string, unknown> = {
      iss: as.issuer,
      aud: url,
      iat: now(),
      exp: now() + 600,
      sub: 'alice',
      client_id: as.clientId,
      scope: 'notes:read notes:write',
      ...overrides,
    };
    for (const key of Object.keys(all)) if (all[key] === undefined) delete all[key];
    return all;
  };

  const send = (era: Era, authorization: string | undefined, request = opening(era)) =>
    rawRequest(url, { headers: { ...request.headers, ...(authorization !== undefined ? { authorization } : {}) }, body: request.body });

  /** The body is exactly `{ error, error_description }`, a short sentence, and tells nothing about the server. */
  const expectCleanBody = (response: RawResponse, error: string, description: string) => {
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(response.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    expect(body).toEqual({ error, error_description: description });
    expect(description).toMatch(/^[A-Z][\x20-\x7e]{10,100}\.$/);
    const everything = response.body + String(response.headers['www-authenticate'] ?? '');
    expect(everything).not.toMatch(/\bat .+:\d+|\/work\/|node_modules|\.[jt]s\b|[A-Za-z]*Error\b|ERR_[A-Z]|stack|-----BEGIN/);
    for (const key of jwks) for (const part of [key.x, key.y, key.n]) if (part) expect(everything).not.toContain(part);
  };

  const challenge = (error: string, description: string, scopes = 'notes:read notes:write') =>
    `Bearer resource_metadata="${metadataUrl}", scope="${scopes}", error="${error}", error_description="${description}"`;

  /** Refused 401 invalid_token with `description`, in both eras, twice each with the same answer. */
  const expectInvalid = async (authorization: string, description: string) => {
    for (const era of ERAS) {
      const first = await send(era, authorization);
      const second = await send(era, authorization);
      for (const response of [first, second]) {
        expect({ era, status: response.status }).toEqual({ era, status: 401 });
        expect(response.headers['www-authenticate']).toBe(challenge('invalid_token', description));
        expectCleanBody(response, 'invalid_token', description);
      }
      expect(second.body).toBe(first.body);
    }
  };

  /** Served: the opening request of each era is answered with its result, twice. */
  const expectServed = async (authorization: string) => {
    for (const era of ERAS) {
      for (let i = 0; i < 2; i++) {
        const response = await send(era, authorization);
        expect({ era, status: response.status }).toEqual({ era, status: 200 });
        const [answer] = messagesOf(response.body);
        expect(answer.error).toBeUndefined();
        expect(answer.result).toBeDefined();
      }
    }
  };

  const bearer = (token: string) => `Bearer ${token}`;
  const AUDIENCE = 'The access token was not issued for this server (audience).';
  const ISSUER = 'The access token was issued by an authorization server this server does not trust.';
  const ALGORITHM = 'The access token is signed with an algorithm this server does not accept.';
  const SIGNATURE = "The access token's signature is invalid.";
  const UNKNOWN_KEY = 'The access token is signed with a key this server does not know.';
  const MALFORMED = 'The access token is malformed: expected a signed JWT.';
  const NOT_BEARER = 'The Authorization header must be: Bearer <token>.';

  it('serves a well-made token signed by the authorization server (the baseline of the cases below)', async () => {
    await expectServed(bearer(await as.sign(claims())));
    await expectServed(bearer(await as.token({ scope: 'notes:read', resource: url })));
  });

  describe('audience and issuer', () => {
    it('refuses a token signed by the authorization server for another audience', async () => {
      await expectInvalid(bearer(await as.sign(claims({ aud: 'http://127.0.0.1:1/other' }))), AUDIENCE);
      await expectInvalid(bearer(await as.sign(claims({ aud: [as.clientId, 'https://mcp.example.com/mcp'] }))), AUDIENCE);
    });

    it('refuses a token without an audience', async () => {
      await expectInvalid(bearer(await as.sign(claims({ aud: undefined }))), AUDIENCE);
    });

    it('refuses a token the authorization server issued for another resource', async () => {
      const other = await as.token({ scope: 'notes:read notes:write', resource: 'http://127.0.0.1:1/mcp' });
      expect(jose.decodeJwt(other).aud).toBe('http://127.0.0.1:1/mcp');
      await expectInvalid(bearer(other), AUDIENCE);
    });

    it('refuses a token of another issuer, even signed with the trusted key', async () => {
      await expectInvalid(bearer(await as.sign(claims({ iss: 'http://127.0.0.1:1/evil' }))), ISSUER);
      await expectInvalid(bearer(await as.sign(claims({ iss: `${as.issuer}/` }))), ISSUER);
      await expectInvalid(bearer(await as.sign(claims({ iss: undefined }))), ISSUER);
    });
  });

  describe('lifetime (30 s of clock skew allowed)', () => {
    it('refuses a token expired longer ago than the tolerance', async () => {
      await expectInvalid(bearer(await as.sign(claims({ iat: now() - 700, exp: now() - 120 }))), 'The access token has expired.');
    });

    it('accepts a token expired within the tolerance', async () => {
      await expectServed(bearer(await as.sign(claims({ iat: now() - 600, exp: now() - 10 }))));
    });

    it('refuses a token not valid yet beyond the tolerance, accepts one within it', async () => {
      await expectInvalid(bearer(await as.sign(claims({ nbf: now() + 120 }))), 'The access token is not valid yet.');
      await expectServed(bearer(await as.sign(claims({ nbf: now() + 10 }))));
    });

    it('refuses a token without exp', async () => {
      await expectInvalid(bearer(await as.sign(claims({ exp: undefined }))), 'The access token has no expiry.');
    });
  });

  describe('signature', () => {
    it("refuses alg 'none' (unsigned) and a header without alg", async () => {
      const payload = b64(claims());
      for (const header of [{ alg: 'none', typ: 'at+jwt' }, { alg: 'none' }, { alg: 'None', typ: 'JWT' }, { typ: 'at+jwt' }, { alg: 256 }]) {
        await expectInvalid(bearer(`${b64(header)}.${payload}.`), ALGORITHM);
      }
    });

    it('refuses a real token whose signature bytes were changed', async () => {
      const [header, payload, signature] = (await as.token({ scope: 'notes:read notes:write', resource: url })).split('.');
      await expectInvalid(bearer(`${header}.${payload}.${flip(signature)}`), SIGNATURE);
      // The signature of another token (same key, same header): valid, but not for this payload.
      const [, , another] = (await as.token({ scope: 'notes:read', resource: url })).split('.');
      await expectInvalid(bearer(`${header}.${payload}.${another}`), SIGNATURE);
    });

    it('refuses a real token whose payload was changed (more scopes, other subject), its signature kept', async () => {
      const token = await as.token({ scope: 'notes:read', resource: url });
      const [header, payload, signature] = token.split('.');
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      expect(decoded.scope).toBe('notes:read');
      await expectInvalid(bearer(`${header}.${b64({ ...decoded, scope: 'notes:read notes:write' })}.${signature}`), SIGNATURE);
      await expectInvalid(bearer(`${header}.${b64({ ...decoded, sub: 'admin' })}.${signature}`), SIGNATURE);
      // The untouched token still works: a refusal of its forgeries is not remembered against it.
      await expectServed(bearer(token));
    });

    it('refuses a token signed with a key the authorization server never published', async () => {
      const { privateKey } = await jose.generateKeyPair('ES256');
      const forged = await new jose.SignJWT(claims()).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'unknown' }).sign(privateKey);
      await expectInvalid(bearer(forged), UNKNOWN_KEY);
      // The trusted key, but a kid the JWKS does not have.
      await expectInvalid(bearer(await as.sign(claims(), 'unknown')), UNKNOWN_KEY);
    });

    it('refuses a token signed with a foreign key under the kid of a published key', async () => {
      const published = jwks.find((k) => k.alg === 'ES256')!;
      const { privateKey } = await jose.generateKeyPair('ES256');
      const forged = await new jose.SignJWT(claims()).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: published.kid }).sign(privateKey);
      await expectInvalid(bearer(forged), SIGNATURE);
    });

    it("refuses HMAC tokens keyed with the authorization server's public key (algorithm confusion)", async () => {
      // [kid of the key, the secret made of it]: the forged token names the key its secret came from.
      const secrets: Array<[string, Uint8Array]> = [];
      for (const jwk of jwks) {
        const spki = createPublicKey({ key: jwk as never, format: 'jwk' });
        const { kid, kty, crv, x, y, n, e } = jwk as jose.JWK & { kid: string };
        secrets.push(
          [kid, Buffer.from(JSON.stringify(jwk))],
          [kid, Buffer.from(JSON.stringify(kty === 'EC' ? { crv, kty, x, y } : { e, kty, n }))],
          [kid, Buffer.from(spki.export({ type: 'spki', format: 'pem' }) as string)],
          [kid, spki.export({ type: 'spki', format: 'der' })],
        );
        if (kty === 'EC') secrets.push([kid, Buffer.concat([Buffer.from([4]), Buffer.from(x!, 'base64url'), Buffer.from(y!, 'base64url')])]);
        if (kty === 'RSA') secrets.push([kid, Buffer.from(spki.export({ type: 'pkcs1', format: 'pem' }) as string)]);
      }
      expect(secrets).toHaveLength(10); // one ES256 and one RS256 key, five forms each
      for (const [kid, secret] of secrets) {
        for (const alg of ['HS256', 'HS512']) {
          const forged = await new jose.SignJWT(claims()).setProtectedHeader({ alg, typ: 'at+jwt', kid }).sign(secret);
          await expectInvalid(bearer(forged), ALGORITHM);
        }
      }
    });
  });

  describe('the Authorization header', () => {
    it('refuses headers that are not a bearer token', async () => {
      // Random printable bytes, non-ASCII included (what an HTTP header may carry).
      const random = [...randomBytes(64)].map((b) => String.fromCharCode(b < 0x80 ? 0x21 + (b % 0x5e) : 0xa0 + (b % 0x60))).join('');
      for (const authorization of ['Basic abc', 'Basic dGVzdC1jbGllbnQ6dGVzdC1jbGllbnQtc2VjcmV0', 'Bearer', 'Bearer a b', 'Token abc', 'Bearer"abc"', random, `Bearer ${random}`]) {
        await expectInvalid(authorization, NOT_BEARER);
      }
    });

    it('refuses bearer tokens that are not JWTs (an opaque token of the authorization server among them)', async () => {
      const opaque = await as.token({ scope: 'notes:read' });
      expect(opaque.split('.')).toHaveLength(1);
      for (const token of [opaque, randomBytes(48).toString('base64url'), 'a.b.c', `${b64({ alg: 'ES256' })}.${Buffer.from('not json').toString('base64url')}.x`]) {
        await expectInvalid(bearer(token), MALFORMED);
      }
    });

    it('refuses a 10 KiB header as too large, before reading it', async () => {
      await expectInvalid(bearer('a'.repeat(10 * 1024)), 'The Authorization header is too large (over 8192 characters).');
    });

    it('leaves a 20 KiB header to Node (431) and keeps serving', async () => {
      for (const era of ERAS) {
        const response = await send(era, bearer('a'.repeat(20 * 1024)));
        expect(response.status).toBe(431);
        expect(response.body).toBe('');
      }
      await expectServed(bearer(await as.sign(claims())));
    });

    it('refuses a bad token on GET (stream) and DELETE as on POST', async () => {
      const authorization = bearer(await as.sign(claims({ exp: now() - 120 })));
      const get = await peek(url, { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization });
      expect(get.status).toBe(401);
      expect(get.headers['www-authenticate']).toBe(challenge('invalid_token', 'The access token has expired.'));
      expectCleanBody(get, 'invalid_token', 'The access token has expired.');
      const del = await rawRequest(url, { method: 'DELETE', headers: { 'mcp-session-id': 'x', 'mcp-protocol-version': '2025-11-25', authorization } });
      expect(del.status).toBe(401);
      expectCleanBody(del, 'invalid_token', 'The access token has expired.');
    });

    it('points every 401 to the protected resource metadata, a missing token with no error code', async () => {
      for (const era of ERAS) {
        for (const authorization of [undefined, '']) {
          const response = await send(era, authorization);
          expect(response.status).toBe(401);
          expect(response.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrl}", scope="notes:read notes:write"`);
        }
        for (const authorization of ['Bearer', 'Bearer e30.e30.e30', bearer(await as.sign(claims({ aud: 'x' })))]) {
          const response = await send(era, authorization);
          expect(response.status).toBe(401);
          expect(response.headers['www-authenticate']).toMatch(new RegExp(`^Bearer resource_metadata="${metadataUrl}", scope="notes:read notes:write", error="invalid_token", `));
        }
      }
      const metadata = await fetch(metadataUrl);
      expect(metadata.status).toBe(200);
      expect(((await metadata.json()) as { resource: string }).resource).toBe(url);
    });
  });

  describe('scopes (403 insufficient_scope, step-up)', () => {
    /** Refused 403 in both eras, twice each with the same answer. */
    const expectInsufficient = async (
      authorization: string,
      method: 'tools/call' | 'prompts/get' | 'resources/read',
      params: Record<string, unknown>,
      description: string,
      scopes: string,
    ) => {
      for (const era of ERAS) {
        const request = naming(era, method, params);
        const first = await send(era, authorization, request);
        const second = await send(era, authorization, request);
        for (const response of [first, second]) {
          expect({ era, status: response.status }).toEqual({ era, status: 403 });
          expect(response.headers['www-authenticate']).toBe(challenge('insufficient_scope', description, scopes));
          expectCleanBody(response, 'insufficient_scope', description);
        }
        expect(second.body).toBe(first.body);
      }
    };

    it('names the missing scope and the complete set to ask for (held + needed)', async () => {
      const readOnly = bearer(await as.token({ scope: 'notes:read', resource: url }));
      await expectInsufficient(readOnly, 'tools/call', { name: 'addNote', arguments: { text: 'x' } }, 'This request needs the scope notes:write.', 'notes:read notes:write');
    });

    it('names every missing scope for a token without any', async () => {
      const none = bearer(await as.sign(claims({ scope: undefined })));
      await expectInsufficient(none, 'tools/call', { name: 'addNote', arguments: { text: 'x' } }, 'This request needs the scopes notes:read notes:write.', 'notes:read notes:write');
      await expectInsufficient(none, 'tools/call', { name: 'listNotes', arguments: {} }, 'This request needs the scope notes:read.', 'notes:read');
      await expectInsufficient(none, 'prompts/get', { name: 'summarize' }, 'This request needs the scope notes:read.', 'notes:read');
      await expectInsufficient(none, 'resources/read', { uri: 'notes://1' }, 'This request needs the scope notes:read.', 'notes:read');
    });

    it('keeps the scopes a token holds besides the needed ones in the challenge', async () => {
      const other = bearer(await as.sign(claims({ scope: 'profile notes:read' })));
      await expectInsufficient(other, 'tools/call', { name: 'addNote', arguments: { text: 'x' } }, 'This request needs the scope notes:write.', 'profile notes:read notes:write');
    });

    it('lets a token without scopes call the @Public tool', async () => {
      const none = bearer(await as.sign(claims({ scope: undefined })));
      const response = await send('2026-07-28', none, naming('2026-07-28', 'tools/call', { name: 'whoami', arguments: {} }));
      expect(response.status).toBe(200);
      expect(messagesOf(response.body)[0].result.structuredContent).toEqual({ subject: 'alice', clientId: as.clientId, scopes: [] });
    });
  });

  it.each([undefined, '2026-07-28'] as const)('still serves a valid token with the SDK client after all of that (era %s)', async (era) => {
    const token = await as.token({ scope: 'notes:read notes:write', resource: url });
    const client = new Client({ name: 't', version: '1' }, era ? { versionNegotiation: { mode: { pin: era } } } : {});
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['addNote', 'listNotes', 'whoami']);
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toEqual({ subject: as.clientId, clientId: as.clientId, scopes: ['notes:read', 'notes:write'] });
    await client.close();
  });
});
