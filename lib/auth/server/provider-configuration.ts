import type { ServerResponse } from 'node:http';
import { sameResource } from '../../context';
import { identityClaims } from './accounts';
import type { AuthorizationServer } from './authorization-server';
import { clientDocuments } from './client-documents';
import type { Logout } from './logout';
import type { MachineClientConfiguration } from './machine-clients';
import type { OidcAdapterClass } from './oidc-adapter';
import type { OidcContext, OidcGrant, OidcProviderModule } from './oidc-provider.types';
import { errorPage } from './pages';
import { OAUTH_PREFIX, ROUTES } from './routes';

/** What the configuration reads of the authorization server (its private parts given by it). */
export interface ConfigurationHost {
  readonly server: AuthorizationServer;
  readonly adapter: OidcAdapterClass;
  readonly logout: Logout;
  existingGrant(ctx: OidcContext): Promise<OidcGrant | undefined>;
}

/**
 * oidc-provider's configuration for an `auth.server` (docs/auth.md, "Options of auth.server"): the store adapter,
 * keys, routes, PKCE S256 only, public clients by default, refresh-token rotation, RFC 8707 resource indicators for
 * this MCP endpoint only (JWT access tokens), the claims the resource server needs, bounded fetches of client documents.
 */
export function providerConfiguration(host: ConfigurationHost, oidc: OidcProviderModule, signing: Record<string, unknown>[], cookies: string[], machines: MachineClientConfiguration): Record<string, unknown> {
const { server } = host;
const { resource, scopes, ttl, options, toProvider } = server;
  const documents = clientDocuments(options.clientIdMetadataDocuments);
  return {
    extraClientMetadata: machines.extraClientMetadata,
    // A factory, not the class: oidc-provider tells a constructor by `instanceof Function`, of its own realm.
    adapter: (model: string) => new host.adapter(model),
    jwks: { keys: signing },
    cookies: { keys: cookies },
    routes: ROUTES,
    scopes: ['openid', 'offline_access', ...scopes],
    claims: { openid: ['sub'], email: ['email'], profile: ['name', 'preferred_username'], groups: ['groups'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: signing[0].alg,
    },
    allowOmittingSingleRegisteredRedirectUri: false,
    clientBasedCORS: () => true,
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    ttl: { AccessToken: ttl.accessToken, ClientCredentials: ttl.accessToken, AuthorizationCode: 60, RefreshToken: ttl.refreshToken, Session: ttl.session, Grant: ttl.refreshToken, Interaction: 600, IdToken: 3600 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${OAUTH_PREFIX}interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = await server.account(sub);
      return account && toProvider({ accountId: sub, claims: () => toProvider({ sub, ...identityClaims(account.identity) }) });
    },
    // What the resource server needs to know of the user rides in the access token: never the upstream token.
    extraTokenClaims: async (_ctx: unknown, token: { kind: string; accountId?: string }) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await server.account(token.accountId);
      // `grant_id`: the resource server refuses the token once its grant is revoked.
      return account ? toProvider({ ...identityClaims(account.identity), idp: account.idp ?? server.upstream.name, grant_id: (token as { grantId?: string }).grantId }) : undefined;
    },
    loadExistingGrant: (ctx: OidcContext) => host.existingGrant(ctx),
    renderError: (ctx: { res: ServerResponse; respond: boolean }, out: { error: string; error_description?: string }) => {
      ctx.respond = false;
      errorPage(ctx.res, 400, `${out.error}: ${out.error_description ?? 'the request could not be completed'}.`);
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: options.registration !== false },
      revocation: { enabled: true },
      clientCredentials: { enabled: machines.enabled },
      userinfo: { enabled: false },
      rpInitiatedLogout: host.logout.feature(),
      clientIdMetadataDocument: documents.feature,
      pushedAuthorizationRequests: { enabled: options.pushedAuthorizationRequests === true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        // RFC 8707: this server issues tokens for its own MCP endpoint only; any other resource is invalid_target.
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (!sameResource(indicator, resource)) throw new oidc.errors.InvalidTarget(`this authorization server issues tokens for ${resource} only`);
          return toProvider(server.resourceServer());
        },
      },
    },
    // A client's keys and sector document are a few KiB: oidc-provider reads them without a bound by default.
    fetchResponseBodyLimits: { 'client_id metadata document': 5 * 1024, jwks_uri: 64 * 1024, sector_identifier_uri: 64 * 1024 },
    fetch: documents.fetch,
  };
}
