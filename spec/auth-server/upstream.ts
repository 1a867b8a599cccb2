import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real oidc-provider as the *upstream* provider (what Google or GitHub are to the server): one confidential
 * client (this server), no Dynamic Client Registration, no resource indicators, its development login page
 * (any login, any password) and consent page. Users are `<login>`, `<login>@example.com`, in group `staff`.
 */
export interface Upstream {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Builds the provider for the server's callback (known once the server listens). */
  register(redirectUri: string): void;
  /** Upstream access tokens issued so far. */
  readonly accessTokens: string[];
  /** Whose each upstream access token is. */
  readonly owners: Map<string, string>;
  close(): Promise<void>;
}

/**
 * `github`: shaped like GitHub instead (OAuth 2.0 only: the issuer `<origin>/login/oauth`, its
 * `/login/oauth/authorize` and `/login/oauth/access_token` endpoints, the scopes `read:user user:email`).
 */
export async function startUpstream(options: { github?: boolean; refresh?: { accessTokenTtl: number } } = {}): Promise<Upstream> {
  const Provider = (require('oidc-provider') as { default: new (issuer: string, config: Record<string, unknown>) => { callback(): (req: unknown, res: unknown) => void; on(e: string, l: (...a: any[]) => void): void } }).default;
  let handler: ((req: unknown, res: unknown) => void) | undefined;
  const mount = options.github ? '/login/oauth' : '';
  const server: Server = createServer((req, res) => {
    // Mounted under the issuer's path, as Express would: oidc-provider reads the mount from originalUrl.
    if (mount && req.url?.startsWith(mount)) Object.assign(req, { originalUrl: req.url, url: req.url.slice(mount.length) || '/' });
    return handler ? handler(req, res) : res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}${mount}`;
  const clientId = 'mcp-server';
  const clientSecret = randomBytes(16).toString('hex');
  const accessTokens: string[] = [];
  const owners = new Map<string, string>();
  return {
    issuer,
    clientId,
    clientSecret,
    accessTokens,
    owners,
    register(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], token_endpoint_auth_method: 'client_secret_post', grant_types: options.refresh ? ['authorization_code', 'refresh_token'] : ['authorization_code'], response_types: ['code'] }],
        // `refresh`: short-lived access tokens, and a refresh token with each (rotated at every use).
        ...(options.refresh ? { issueRefreshToken: () => true, rotateRefreshToken: () => true } : {}),
        pkce: { required: () => true },
        scopes: ['openid', 'email', 'profile', 'read:user', 'user:email'],
        claims: { openid: ['sub', 'groups'], email: ['email'], profile: ['name', 'preferred_username'] },
        ...(options.github ? { routes: { authorization: '/authorize', token: '/access_token' } } : {}),
        findAccount: async (_ctx: unknown, sub: string) => ({
          accountId: sub,
          claims: () => ({ sub, email: `${sub}@example.com`, name: sub.toUpperCase(), preferred_username: sub, groups: ['staff'] }),
        }),
        ttl: { AccessToken: options.refresh?.accessTokenTtl ?? 600, RefreshToken: 3600, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, IdToken: 600 },
        features: { devInteractions: { enabled: true }, registration: { enabled: false }, resourceIndicators: { enabled: false }, userinfo: { enabled: true } },
        cookies: { keys: ['upstream-cookie-key'] },
      });
      provider.on('grant.success', (ctx: { body: { access_token: string }; oidc: { entities: { AuthorizationCode?: { accountId: string } } } }) => {
        accessTokens.push(ctx.body.access_token);
        const owner = ctx.oidc.entities.AuthorizationCode?.accountId;
        if (owner) owners.set(ctx.body.access_token, owner);
      });
      handler = provider.callback();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
