import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import { initializeBody, JSON_AND_SSE, messagesOf, rawRequest, type RawResponse } from '../support/http-helpers';

/**
 * Authorization servers on loopback that sign whatever they are asked to, header included (the shapes of other
 * providers' tokens: Entra ID, Okta, Keycloak, Cognito…), and an RFC 7662 introspection endpoint that answers
 * what it is told for each token. Each issuer is a path of one server (`<origin>/<name>`, trailing slash kept
 * where the provider has one), with OpenID discovery and a JWKS of one RS256 key.
 */
export interface LocalIssuers {
  readonly origin: string;
  /** The issuer URL of `path` (e.g. `/tenant/v2.0`, `/tenant/`). */
  issuer(path: string): string;
  /** A JWT signed with the RS256 key; `header` adds to (or, with undefined, removes from) `{ alg, kid }`. */
  sign(payload: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  /** The introspection endpoint: answers `answers[token]` (else `{ active: false }`) and counts the calls. */
  readonly introspectionEndpoint: string;
  readonly answers: Map<string, Record<string, unknown>>;
  introspections(token: string): number;
  close(): Promise<void>;
}

export async function startLocalIssuers(paths: readonly string[]): Promise<LocalIssuers> {
  const { privateKey, publicKey } = await jose.generateKeyPair('RS256');
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'local-1', alg: 'RS256', use: 'sig' };
  const answers = new Map<string, Record<string, unknown>>();
  const calls = new Map<string, number>();
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/jwks') return json(200, { keys: [jwk] });
    if (path === '/introspect' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const token = new URLSearchParams(body).get('token') ?? '';
        calls.set(token, (calls.get(token) ?? 0) + 1);
        json(200, answers.get(token) ?? { active: false });
      });
      return;
    }
    // RFC 8414 and OpenID discovery, at every place the resource server looks: the issuer whose path it names.
    const named = path.replace(/^\/\.well-known\/(oauth-authorization-server|openid-configuration)/, '').replace(/\/\.well-known\/openid-configuration$/, '');
    const match = paths.find((p) => p.replace(/\/$/, '') === named.replace(/\/$/, ''));
    if (match === undefined || !path.includes('/.well-known/')) return json(404, { error: 'not_found' });
    return json(200, { issuer: origin + match, jwks_uri: `${origin}/jwks` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    issuer: (path) => origin + path,
    async sign(payload, header = {}) {
      const all: Record<string, unknown> = { alg: 'RS256', kid: jwk.kid, ...header };
      for (const key of Object.keys(all)) if (all[key] === undefined) delete all[key];
      return new jose.SignJWT(payload).setProtectedHeader(all as jose.JWTHeaderParameters).sign(privateKey);
    },
    introspectionEndpoint: `${origin}/introspect`,
    answers,
    introspections: (token) => calls.get(token) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Era = '2025-11-25' | '2026-07-28';
export const ERAS: readonly Era[] = ['2025-11-25', '2026-07-28'];

/** The first request of a client of that era: `initialize` (2025), `server/discover` (2026-07-28). */
function opening(era: Era): { headers: Record<string, string>; body: string } {
  if (era === '2025-11-25') return { headers: JSON_AND_SSE, body: initializeBody() };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return {
    headers: { ...JSON_AND_SSE, 'mcp-method': 'server/discover', 'mcp-protocol-version': '2026-07-28' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }),
  };
}

export function sendOpening(url: string, era: Era, token: string): Promise<RawResponse> {
  const request = opening(era);
  return rawRequest(url, { headers: { ...request.headers, authorization: `Bearer ${token}` }, body: request.body });
}

/** Refused 401 invalid_token with exactly `description` (body and challenge), in both eras, twice each. */
export async function expectRefused(url: string, token: string, description: string): Promise<void> {
  for (const era of ERAS) {
    for (let i = 0; i < 2; i++) {
      const response = await sendOpening(url, era, token);
      expect({ era, i, status: response.status, body: JSON.parse(response.body) }).toEqual({
        era,
        i,
        status: 401,
        body: { error: 'invalid_token', error_description: description },
      });
      expect(response.headers['www-authenticate']).toContain(`error="invalid_token", error_description="${description}"`);
    }
  }
}

/** Served: the opening request of each era is answered with its result, twice. */
export async function expectServed(url: string, token: string): Promise<void> {
  for (const era of ERAS) {
    for (let i = 0; i < 2; i++) {
      const response = await sendOpening(url, era, token);
      expect({ era, i, status: response.status, body: response.status === 200 ? 'ok' : response.body }).toEqual({ era, i, status: 200, body: 'ok' });
      const [answer] = messagesOf(response.body);
      expect(answer.error).toBeUndefined();
      expect(answer.result).toBeDefined();
    }
  }
}
