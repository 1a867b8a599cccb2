import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });

/**
 * A stand-in authorization server for the bearer-auth row, in the bench process: an ES256 key pair made with
 * jose, its public half served as a JWKS from node:http on 127.0.0.1 (port 0), and access tokens signed with
 * the private half. The MCP server under test is given `auth: { issuer, jwksUri }`, so it skips discovery.
 */
export interface TokenIssuer {
  readonly issuer: string;
  readonly jwksUri: string;
  /** How many times the JWKS was fetched (a server verifies a token once, then keeps it). */
  readonly jwksFetches: number;
  /** An RFC 9068 access token for `audience` (the MCP server's URL), valid for an hour. */
  sign(audience: string): Promise<string>;
  stop(): Promise<void>;
}

const KID = 'bench-es256';

export async function startIssuer(): Promise<TokenIssuer> {
  // jose is ESM-only; Node ≥ 20.19 loads it with require() (as the library itself does).
  const jose = require('jose') as Jose;
  const { publicKey, privateKey } = await jose.generateKeyPair('ES256');
  const jwks = JSON.stringify({ keys: [{ ...(await jose.exportJWK(publicKey)), kid: KID, alg: 'ES256', use: 'sig' }] });
  let fetches = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/jwks') {
      fetches++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    get jwksFetches() {
      return fetches;
    },
    sign: (audience) =>
      new jose.SignJWT({ scope: 'mcp tools:call', client_id: 'bench-client' })
        .setProtectedHeader({ alg: 'ES256', kid: KID, typ: 'at+jwt' })
        .setIssuer(issuer)
        .setSubject('bench-user')
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
