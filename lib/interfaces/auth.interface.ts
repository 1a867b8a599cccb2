import type { McpAuth } from '../context';
import type { AuthorizationServerOptions } from './authorization-server.interface';

export type { McpAuth };

/** Verifies an access token: the verified identity, or a thrown error (the client gets 401 invalid_token). */
export type TokenVerifier = (token: string) => Promise<McpAuth>;

/** RFC 7662 token introspection, for opaque access tokens. */
export interface IntrospectionOptions {
  /** The authorization server's introspection endpoint. */
  readonly endpoint: string;
  /** This resource server's client credentials at the authorization server (client_secret_basic). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** Most milliseconds one introspection may take. Default 5 s. */
  readonly timeoutMs?: number;
}

/**
 * Authorization of an HTTP endpoint (`app.listen({ transport: 'http', auth })`, `app.createHttpHandler({
 * auth })`): the server is an OAuth 2.1 resource server (MCP spec, "Authorization"). Give `issuer` (and,
 * optionally, `jwksUri`) to verify JWT access tokens, `introspection` for opaque tokens, or `verify` for
 * anything else.
 */
export interface AuthOptions {
  /**
   * The authorization server(s) whose tokens are accepted (`iss`); published in the resource metadata.
   * Required, unless `server` makes this server its own authorization server (then it is that issuer).
   */
  readonly issuer?: string | readonly string[];
  /**
   * Be the authorization server too, in front of an upstream login (GitHub, Google, Entra, any OIDC issuer):
   * served on the endpoint's origin (docs/auth.md, "Sign-in for Claude, ChatGPT and IDEs").
   */
  readonly server?: AuthorizationServerOptions;
  /**
   * This server's resource identifier (RFC 8707 / RFC 9728 `resource`): tokens must carry it in `aud`.
   * Default for `listen()`: the endpoint's URL (e.g. `http://127.0.0.1:3000/mcp`). Required with
   * `createHttpHandler()` (the public URL clients use), since a handler does not know where it is mounted.
   */
  readonly resource?: string;
  /** Audiences accepted besides `resource` (a provider that issues its own audience string). */
  readonly audience?: string | readonly string[];
  /** Where the signing keys are. Default: `jwks_uri` of the issuer's metadata (RFC 8414, then OpenID discovery). */
  readonly jwksUri?: string;
  /** Accepted JWT signature algorithms. Default: RS256/384/512, PS256/384/512, ES256/384/512, EdDSA. Never `none`, never HMAC. */
  readonly algorithms?: readonly string[];
  /**
   * Accept only JWTs whose header says `typ: 'at+jwt'` (RFC 9068 access tokens), for authorization servers that
   * type their access tokens (oidc-provider, Auth0's RFC 9068 profile, PingOne). Without it, untyped JWTs are
   * accepted unless their claims show another token type (an ID token's `nonce`, …); other types never are.
   */
  readonly tokenType?: 'at+jwt';
  /** Clock skew allowed on `exp`/`nbf`/`iat`, in seconds. Default 30. */
  readonly clockToleranceSec?: number;
  /** Verify opaque tokens by RFC 7662 introspection instead of as JWTs. */
  readonly introspection?: IntrospectionOptions;
  /** Verify tokens yourself (instead of JWT or introspection); `issuer`/`resource` are still published. */
  readonly verify?: TokenVerifier;
  /** Scopes every request needs (e.g. `['mcp']`); advertised in 401 challenges. */
  readonly requiredScopes?: readonly string[];
  /**
   * A call whose component needs scopes (`@Scopes()`) the token lacks: `'challenge'` (default) answers HTTP
   * 403 `insufficient_scope` with the needed scopes, so the client can ask for them (step-up); `'error'`
   * answers in MCP (an `isError` tool result, or a JSON-RPC error).
   */
  readonly insufficientScope?: 'challenge' | 'error';
  /** Published in the protected resource metadata (RFC 9728): the scopes this server understands. */
  readonly scopesSupported?: readonly string[];
  /** Published as `resource_documentation`. */
  readonly resourceDocumentation?: string;
  /** Published as `resource_name`. */
  readonly resourceName?: string;
  /** Verified tokens kept, so a busy client pays verification once: at most this many. Default 10,000. */
  readonly cacheSize?: number;
  /**
   * @internal Asked of a verified token at every request, cached or not (`auth.server`: whether its grant was
   * revoked since); a token it refuses is refused with the error it throws.
   */
  readonly recheck?: (auth: McpAuth) => Promise<void>;
}
