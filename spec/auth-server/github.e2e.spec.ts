import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { githubUpstream } from 'mcp-reflect/auth-server';
import { authorizationUrl, browse, pkce, register, SignInModule, startUpstream, tokenRequest, type Upstream } from './support';

const REDIRECT = 'http://127.0.0.1:47700/callback';

/**
 * The GitHub preset against a provider shaped like GitHub: OAuth 2.0 only (no discovery, no ID token), its
 * endpoints under /login/oauth, and a user API (GET /user, /user/emails) answering for the tokens it issued.
 */
describe('githubUpstream', () => {
  let upstream: Upstream;
  let api: Server;
  let app: McpApplication;
  const seen: string[] = [];

  beforeAll(async () => {
    upstream = await startUpstream({ github: true });
    api = createServer((req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const login = upstream.owners.get(token);
      seen.push(`${req.url} ${req.headers.accept}`);
      if (!login) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Bad credentials"}');
      const body = req.url === '/user' ? { id: 583231, login, name: null, email: null } : [{ email: `${login}@users.example.com`, primary: true, verified: true }];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const web = upstream.issuer.replace(/\/login\/oauth$/, '');
    app = await McpFactory.create(SignInModule);
    await app.listen({
      transport: 'http',
      port: 0,
      auth: {
        scopesSupported: ['notes:read'],
        server: { upstream: githubUpstream({ clientId: upstream.clientId, clientSecret: upstream.clientSecret, webUrl: web, apiUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}` }) },
      },
    });
    upstream.register(`${new URL(await app.getUrl()).origin}/oauth/callback`);
  });
  afterAll(async () => {
    await app?.close();
    await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
    await upstream?.close();
  });

  it('signs in with the OAuth endpoints, reads the user API, and issues a token for the GitHub user', async () => {
    const url = await app.getUrl();
    const origin = new URL(url).origin;
    const clientId = await register(origin, [REDIRECT]);
    const { verifier, challenge } = pkce();
    const { url: callback } = await browse(authorizationUrl(origin, { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: url }), REDIRECT, { login: 'octocat' });
    const tokens = await tokenRequest(origin, { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource: url });
    expect(tokens.status).toBe(200);
    const claims = JSON.parse(Buffer.from(String(tokens.body.access_token).split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: '583231', preferred_username: 'octocat', email: 'octocat@users.example.com', idp: 'GitHub', aud: url });
    expect(seen).toEqual(['/user application/vnd.github+json', '/user/emails application/vnd.github+json']);
  });
});
