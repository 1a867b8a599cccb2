// A development authorization server for the notes-auth sample (docs/auth.md): oidc-provider 9 on
// http://127.0.0.1:4000 (AUTH_PORT changes the port) with one confidential client allowed the
// client_credentials grant. A token requested with `resource=<the MCP server's URL>` (RFC 8707) is a JWT
// whose `aud` is that URL, signed with a key made at start-up and published at the server's jwks_uri.
// ACCESS_TOKEN_FORMAT=opaque issues opaque tokens instead, for RFC 7662 introspection at /token/introspection.
// In memory and for local use only: it prints oidc-provider's notice about its in-memory storage.
//
//   npm install oidc-provider      (in this repository it is a dev dependency already)
//   node samples/notes-auth/authorization-server.mjs
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const scopes = ['notes:read', 'notes:write'];
const accessTokenFormat = process.env.ACCESS_TOKEN_FORMAT === 'opaque' ? 'opaque' : 'jwt';

// The issuer is the server's own URL: bind first (AUTH_PORT=0 picks a free port), then build the provider.
// MCP clients ask for RFC 8414 metadata first; oidc-provider serves the same document as OpenID discovery.
let callback = (_req, res) => res.writeHead(503).end();
const server = createServer((req, res) => {
  if (req.url?.startsWith('/.well-known/oauth-authorization-server')) req.url = '/.well-known/openid-configuration';
  callback(req, res);
});
await new Promise((resolve) => server.listen(Number(process.env.AUTH_PORT ?? 4000), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), kid: 'dev-1', alg: 'RS256', use: 'sig' };

const provider = new Provider(issuer, {
  jwks: { keys: [signingKey] },
  scopes,
  clients: [
    {
      client_id: 'notes-client',
      client_secret: 'notes-client-secret',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: scopes.join(' '),
    },
  ],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // Any resource a client names gets tokens for it; a real server knows its resource servers.
      getResourceServerInfo: (_ctx, resourceIndicator) => ({
        scope: scopes.join(' '),
        audience: resourceIndicator,
        accessTokenTTL: 600,
        accessTokenFormat,
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
});
callback = provider.callback();
console.error(`authorization server at ${issuer} (client notes-client / notes-client-secret, scopes: ${scopes.join(' ')})`);
