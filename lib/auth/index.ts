export { Authenticator, MissingTokenError, MAX_AUTHORIZATION_LENGTH } from './authenticator';
export { metadataPathsOf } from './auth-gate';
