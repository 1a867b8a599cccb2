// `mcp-reflect/auth-server`: sign-in for remote hosts (docs/auth.md, "Sign-in for Claude, ChatGPT and IDEs").
// The server itself is configured as `auth.server` of the HTTP transport; this entry gives the upstream
// presets and the stores. oidc-provider and openid-client (optional peers) load only when a server starts.
export {
  auth0Upstream,
  entraUpstream,
  githubUpstream,
  googleUpstream,
  keycloakUpstream,
  MemoryAuthStore,
  oidcUpstream,
  oktaUpstream,
  RedisAuthStore,
  UpstreamLoginError,
} from '../auth';
export type { MemoryAuthStoreOptions, RedisAuthClient, UpstreamClientOptions } from '../auth';
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
