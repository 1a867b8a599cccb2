export { Authenticator, MissingTokenError, MAX_AUTHORIZATION_LENGTH } from './authenticator';
export { metadataPathsOf } from './auth-gate';
export { MemoryAuthStore, RedisAuthStore } from './server/auth-stores';
export type { MemoryAuthStoreOptions, RedisAuthClient } from './server/auth-stores';
export { UpstreamLoginError } from './server/upstream-login';
export { auth0Upstream, entraUpstream, githubUpstream, googleUpstream, keycloakUpstream, oidcUpstream, oktaUpstream } from './server/upstream-presets';
export type { UpstreamClientOptions } from './server/upstream-presets';
