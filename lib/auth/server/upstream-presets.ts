import type { UpstreamIdentity, UpstreamOptions, UpstreamTokens } from '../../interfaces';
import { identityFromClaims, UpstreamLoginError } from './upstream-login';

/** What every preset takes: this server's client at the provider, and what to change of the preset. */
export interface UpstreamClientOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Scopes asked of the provider, instead of the preset's. */
  readonly scopes?: readonly string[];
  readonly authorizationParams?: Readonly<Record<string, string>>;
}

/** Any OpenID Connect provider by its issuer URL (its discovery document names the endpoints). */
export function oidcUpstream(options: UpstreamClientOptions & { readonly issuer: string; readonly name?: string }): UpstreamOptions {
  return { ...options, scopes: options.scopes ?? ['openid', 'email', 'profile'] };
}

/**
 * GitHub (OAuth 2.0, not OpenID Connect): its authorize and token endpoints, then its user API for who the user
 * is (`id` → subject, `login`, `name`, the primary verified email). `apiUrl` and `webUrl` for GitHub Enterprise Server.
 */
export function githubUpstream(options: UpstreamClientOptions & { readonly webUrl?: string; readonly apiUrl?: string }): UpstreamOptions {
  const web = (options.webUrl ?? 'https://github.com').replace(/\/$/, '');
  const api = (options.apiUrl ?? 'https://api.github.com').replace(/\/$/, '');
  return {
    name: 'GitHub',
    issuer: `${web}/login/oauth`,
    authorizationEndpoint: `${web}/login/oauth/authorize`,
    tokenEndpoint: `${web}/login/oauth/access_token`,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scopes: options.scopes ?? ['read:user', 'user:email'],
    ...(options.authorizationParams ? { authorizationParams: options.authorizationParams } : {}),
    identity: (tokens) => githubIdentity(api, tokens),
  };
}

async function githubIdentity(api: string, tokens: UpstreamTokens): Promise<UpstreamIdentity> {
  const get = async (path: string) => {
    const response = await fetch(`${api}${path}`, {
      headers: { authorization: `Bearer ${tokens.accessToken}`, accept: 'application/vnd.github+json', 'user-agent': 'mcp-reflect' },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`GitHub's ${path} answered ${response.status}`);
    return response.json() as Promise<unknown>;
  };
  const user = (await get('/user')) as { id?: number; login?: string; name?: string | null; email?: string | null };
  if (typeof user.id !== 'number') throw new Error("GitHub's /user named no id");
  let email = user.email ?? undefined;
  if (!email && tokens.scope?.split(/[ ,]/).includes('user:email')) {
    const emails = (await get('/user/emails').catch(() => [])) as { email: string; primary: boolean; verified: boolean }[];
    email = emails.find((e) => e.primary && e.verified)?.email;
  }
  return { subject: String(user.id), ...(user.login ? { username: user.login } : {}), ...(user.name ? { name: user.name } : {}), ...(email ? { email } : {}) };
}

/** Google: `hostedDomain` admits only the users of that Google Workspace domain (its `hd` claim). */
export function googleUpstream(options: UpstreamClientOptions & { readonly hostedDomain?: string }): UpstreamOptions {
  const { hostedDomain } = options;
  return {
    name: 'Google',
    issuer: 'https://accounts.google.com',
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scopes: options.scopes ?? ['openid', 'email', 'profile'],
    // A refresh token (to call Google APIs later) is given with access_type=offline.
    authorizationParams: { access_type: 'offline', ...(hostedDomain ? { hd: hostedDomain } : {}), ...options.authorizationParams },
    ...(hostedDomain
      ? {
          identity: async (_tokens, claims) => {
            if (claims?.hd !== hostedDomain) throw new UpstreamLoginError('access_denied', `Only ${hostedDomain} accounts may sign in here.`);
            return identityFromClaims(claims);
          },
        }
      : {}),
  };
}

/**
 * Microsoft Entra ID (v2.0 endpoints) of one tenant (its id or a verified domain): the ID token's `groups` or
 * app `roles` become the token's groups (configure the groups claim in the app registration).
 */
export function entraUpstream(options: UpstreamClientOptions & { readonly tenant: string }): UpstreamOptions {
  return { ...clientOf(options), name: 'Microsoft', issuer: `https://login.microsoftonline.com/${options.tenant}/v2.0`, scopes: options.scopes ?? ['openid', 'email', 'profile', 'offline_access'] };
}

/** Auth0: the tenant's domain (`example.eu.auth0.com`, or a custom domain). */
export function auth0Upstream(options: UpstreamClientOptions & { readonly domain: string }): UpstreamOptions {
  return { ...clientOf(options), name: 'Auth0', issuer: `https://${options.domain}/`, scopes: options.scopes ?? ['openid', 'email', 'profile', 'offline_access'] };
}

/** Okta: the org's domain, and an authorization server id (`default`) when not the org authorization server. */
export function oktaUpstream(options: UpstreamClientOptions & { readonly domain: string; readonly authorizationServerId?: string }): UpstreamOptions {
  const issuer = `https://${options.domain}${options.authorizationServerId ? `/oauth2/${options.authorizationServerId}` : ''}`;
  return { ...clientOf(options), name: 'Okta', issuer, scopes: options.scopes ?? ['openid', 'email', 'profile', 'groups', 'offline_access'] };
}

/** Keycloak: its base URL and the realm. */
export function keycloakUpstream(options: UpstreamClientOptions & { readonly url: string; readonly realm: string }): UpstreamOptions {
  return { ...clientOf(options), name: 'Keycloak', issuer: `${options.url.replace(/\/$/, '')}/realms/${encodeURIComponent(options.realm)}`, scopes: options.scopes ?? ['openid', 'email', 'profile'] };
}

function clientOf(options: UpstreamClientOptions): Pick<UpstreamOptions, 'clientId' | 'clientSecret' | 'authorizationParams'> {
  return { clientId: options.clientId, clientSecret: options.clientSecret, ...(options.authorizationParams ? { authorizationParams: options.authorizationParams } : {}) };
}
