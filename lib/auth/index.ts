export { Authenticator, MissingTokenError, MAX_AUTHORIZATION_LENGTH, SCOPE_TOKEN } from './authenticator';
export { authFromClaims, missingScopes, ownerOf, scopesOf } from './claims';
