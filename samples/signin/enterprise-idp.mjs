// A local enterprise identity provider for trying "Enterprise sign-in" (docs/auth.md): oidc-provider 9 as Okta
// or Entra ID would be to a company. Its agent client (acme-agent-idp / idp-secret) exchanges a user's ID token for
// an ID-JAG (RFC 8693 token exchange; SEP-990) addressed to your MCP server's authorization server, whose client
// id for the agent is `acme-agent`. `POST /dev/id-token` (development only) stands for the company's single
// sign-on: it hands out an ID token for the user it is given.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import * as jose from 'jose';
import Provider from 'oidc-provider';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const clientId = process.env.IDP_CLIENT_ID ?? 'acme-agent-idp';
const clientSecret = process.env.IDP_CLIENT_SECRET ?? 'idp-secret';
const mcpClientId = process.env.MCP_CLIENT_ID ?? 'acme-agent';

const jwk = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: 'idp-1', alg: 'ES256', use: 'sig' };
const key = await jose.importJWK(jwk, 'ES256');
const { d: _private, ...publicJwk } = jwk;
const keys = jose.createLocalJWKSet({ keys: [publicJwk] });

let callback = (_req, res) => res.writeHead(503).end();
const server = createServer((req, res) => (req.method === 'POST' && req.url === '/dev/id-token' ? idToken(req, res) : callback(req, res)));
await new Promise((resolve) => server.listen(Number(process.env.ENTERPRISE_PORT ?? 4200), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const sign = (claims, typ) => new jose.SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'idp-1', ...(typ ? { typ } : {}) }).sign(key);

/** The company's single sign-on, reduced to one request: `{"user":"dana"}` → an ID token for the agent client. */
async function idToken(req, res) {
  let body = '';
  for await (const chunk of req) body += chunk;
  const user = String(JSON.parse(body || '{}').user ?? 'dana');
  const now = Math.floor(Date.now() / 1000);
  const token = await sign({ iss: issuer, sub: user, aud: clientId, email: `${user}@acme.example`, iat: now, exp: now + 600 });
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id_token: token }));
}

const provider = new Provider(issuer, {
  jwks: { keys: [jwk] },
  clients: [{ client_id: clientId, client_secret: clientSecret, grant_types: [TOKEN_EXCHANGE], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'client_secret_post', id_token_signed_response_alg: 'ES256' }],
  features: { devInteractions: { enabled: false } },
  cookies: { keys: ['local-enterprise-idp-only'] },
});
// The token exchange: the agent's ID token for the user in, an ID-JAG for the MCP server out (the IdP's policy
// would decide here which users may reach which server with which scopes; this one lets everyone in).
provider.registerGrantType(
  TOKEN_EXCHANGE,
  async (ctx) => {
    const { params } = ctx.oidc;
    if (params.requested_token_type !== ID_JAG) {
      ctx.status = 400;
      ctx.body = { error: 'invalid_request', error_description: 'only ID-JAGs are issued here' };
      return;
    }
    let user;
    try {
      ({ payload: user } = await jose.jwtVerify(params.subject_token, keys, { issuer, audience: clientId }));
    } catch {
      ctx.status = 400;
      ctx.body = { error: 'invalid_grant', error_description: 'the ID token is invalid' };
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: issuer, sub: user.sub, email: user.email, aud: params.audience, resource: params.resource, client_id: mcpClientId, jti: randomBytes(12).toString('hex'), iat: now, exp: now + 300, ...(params.scope ? { scope: params.scope } : {}) };
    ctx.body = { access_token: await sign(claims, 'oauth-id-jag+jwt'), issued_token_type: ID_JAG, token_type: 'N_A', expires_in: 300 };
  },
  ['requested_token_type', 'audience', 'resource', 'subject_token', 'subject_token_type', 'scope'],
);
callback = provider.callback();
console.error(`enterprise IdP at ${issuer} (agent client ${clientId} / ${clientSecret}; ID-JAGs for the MCP client ${mcpClientId})`);
