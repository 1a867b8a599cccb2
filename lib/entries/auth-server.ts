// `mcp-reflect/auth-server`: sign-in for remote hosts (docs/auth.md, "Sign-in for Claude, ChatGPT and IDEs").
// The server itself is configured as `auth.server` of the HTTP transport; this entry gives the upstream
// presets and the stores. oidc-provider and openid-client (optional peers) load only when a server starts.
// Straight from their files, not through lib/auth's index: the entry loads the stores and the presets only (the
// resource server's gate, DPoP and the authorization server load when a server starts).
export { MemoryAuthStore, RedisAuthStore } from '../auth/server/auth-stores';
export { UpstreamLoginError } from '../auth/server/upstream-login';
export { auth0Upstream, entraUpstream, githubUpstream, googleUpstream, keycloakUpstream, oidcUpstream, oktaUpstream } from '../auth/server/upstream-presets';
export type { MemoryAuthStoreOptions, RedisAuthClient } from '../auth/server/auth-stores';
export type { UpstreamClientOptions } from '../auth/server/upstream-presets';
export type {
  AnonymousLimitOptions,
  AssertionClient,
  AuthorizationServerKeys,
  AuthorizationServerOptions,
  AuthStore,
  ClientIdMetadataDocumentOptions,
  EnterpriseIssuer,
  IdentityAssertionOptions,
  MachineClient,
  MachineClientOptions,
  UpstreamIdentity,
  UpstreamOptions,
  UpstreamTokens,
} from '../interfaces';
