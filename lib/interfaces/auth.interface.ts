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
 * RFC 9449 DPoP: access tokens bound to a key of the client, each request carrying a proof signed with it
 * (`Authorization: DPoP <token>` and a `DPoP` header), so that a leaked token is useless without the key
 * (docs/auth.md, "DPoP").
 */
export interface DpopOptions {
  /**
   * Refuse bearer tokens: every request must present a DPoP-bound token with its proof, and the protected
   * resource metadata says `dpop_bound_access_tokens_required`. Default false: bearer and DPoP-bound tokens are
   * both accepted (a DPoP-bound token always with its proof, never as a bearer token).
   */
  readonly required?: boolean;
  /** Accepted proof signature algorithms. Default: ES256/384/512, PS256/384/512, RS256/384/512, EdDSA, Ed25519. Never `none`, never HMAC. */
  readonly algorithms?: readonly string[];
  /** How old a proof may be (its `iat`), in seconds, beside `clockToleranceSec`. Default 60, at most 600. */
  readonly maxAgeSeconds?: number;
  /**
   * Server nonces (RFC 9449 §9): a proof must carry a nonce this server gave (`DPoP-Nonce`, after a 401
   * `use_dpop_nonce`), which bounds its age by the server's clock rather than the client's.
   */
  readonly nonce?: boolean | DpopNonceOptions;
  /** Proofs remembered (their `jti`, until they are too old to be accepted), all keys together. Default 50,000. */
  readonly maxProofs?: number;
  /** Proofs remembered per client key; past it, that key's requests are refused (429) until its oldest proofs age out. Default 1,000. */
  readonly maxProofsPerKey?: number;
}

/** How server nonces are made: derived from a secret and the time, so instances sharing the secret accept each other's. */
export interface DpopNonceOptions {
  /** At least 32 characters, the same on every instance behind one URL. Default: random, per process. */
  readonly secret?: string;
  /** A nonce is accepted for one to two of these periods, in seconds. Default 300. */
  readonly lifetimeSeconds?: number;
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
  /**
   * Accept DPoP-bound access tokens (RFC 9449) with their proofs: `true`, or how. With `server`, the
   * authorization server then issues DPoP-bound tokens to clients that send proofs. Default: bearer tokens only
   * (a DPoP-bound token is refused).
   */
  readonly dpop?: boolean | DpopOptions;
  /** Verified tokens kept, so a busy client pays verification once: at most this many. Default 10,000. */
  readonly cacheSize?: number;
  /**
   * @internal Asked of a verified token at every request, cached or not (`auth.server`: whether its grant was
   * revoked since); a token it refuses is refused with the error it throws.
   */
  readonly recheck?: (auth: McpAuth) => Promise<void>;
}
