// A local sign-in provider for trying "Sign-in for Claude, ChatGPT and IDEs" (docs/auth.md): oidc-provider 9
// as Google or GitHub would be to your server — one pre-registered confidential client, NO dynamic client
// registration, NO resource indicators; its development login page takes any login and any password.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const clientId = process.env.UPSTREAM_CLIENT_ID ?? 'mcp-server';
const clientSecret = process.env.UPSTREAM_CLIENT_SECRET ?? 'dev-secret';

let callback = (_req, res) => res.writeHead(503).end();
const server = createServer((req, res) => callback(req, res));
await new Promise((resolve) => server.listen(Number(process.env.UPSTREAM_PORT ?? 4100), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      // A native client's loopback redirect matches on any port (RFC 8252 §7.3): your MCP server on 3000 or elsewhere.
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1/oauth/callback'],
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  pkce: { required: () => true },
  scopes: ['openid', 'email', 'profile'],
  claims: { openid: ['sub', 'groups'], email: ['email'], profile: ['name', 'preferred_username'] },
  findAccount: async (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, email: `${sub}@example.com`, name: sub, preferred_username: sub, groups: ['staff'] }) }),
  ttl: { AccessToken: 3600, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, IdToken: 3600 },
  features: { devInteractions: { enabled: true }, registration: { enabled: false }, resourceIndicators: { enabled: false } },
  cookies: { keys: ['local-upstream-only'] },
});
callback = provider.callback();
console.error(`upstream sign-in provider at ${issuer} (client ${clientId} / ${clientSecret}; any login, any password)`);
