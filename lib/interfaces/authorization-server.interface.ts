import type { UpstreamTokens } from '../context';

export type { UpstreamTokens };

/** The identity an upstream login vouched for, as it goes into the access tokens this server issues. */
export interface UpstreamIdentity {
  /** The user's stable id at the upstream provider (OIDC `sub`, GitHub's numeric user id). */
  readonly subject: string;
  readonly email?: string;
  readonly name?: string;
  /** A login name (`preferred_username`, GitHub's `login`). */
  readonly username?: string;
  /** Groups or roles the upstream provider names (`groups`, Entra's `roles`). */
  readonly groups?: readonly string[];
}

/**
 * The provider users sign in at (authorization code + PKCE, through openid-client): any OpenID Connect issuer
 * by URL, or an OAuth 2.0 provider with its endpoints and a user API (GitHub). The presets (`githubUpstream()`,
 * `googleUpstream()`, `entraUpstream()`, … of `mcp-reflect/auth-server`) build it.
 */
export interface UpstreamOptions {
  /** Shown to users ("Sign in with …") and kept with the upstream tokens. Default: the issuer's host. */
  readonly name?: string;
  /** The OIDC issuer (its discovery document is read), or the OAuth 2.0 provider's issuer identifier. */
  readonly issuer: string;
  /** For OAuth 2.0 providers without discovery (GitHub): the endpoints. */
  readonly authorizationEndpoint?: string;
  readonly tokenEndpoint?: string;
  /** This server's client at the upstream provider: registered there with the redirect URI `<origin>/oauth/callback`. */
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Scopes asked of the upstream provider. Default `openid email profile`. */
  readonly scopes?: readonly string[];
  /** Extra authorization request parameters (`prompt`, `access_type: 'offline'`, …). */
  readonly authorizationParams?: Readonly<Record<string, string>>;
  /**
   * The identity of the user, from the upstream tokens: default the ID token's claims, then the userinfo
   * endpoint's. GitHub's preset reads its user API.
   */
  readonly identity?: (tokens: UpstreamTokens, claims: Readonly<Record<string, unknown>> | undefined) => Promise<UpstreamIdentity>;
  /** Plain-http issuer (a local provider while developing). Default: allowed for loopback issuers only. */
  readonly allowInsecureRequests?: boolean;
}

/**
 * Where the authorization server keeps clients, grants, codes, refresh tokens, sessions and the encrypted
 * upstream tokens: `MemoryAuthStore` (default, one instance, bounded) or `RedisAuthStore` (several instances).
 * Values are opaque strings; every entry has a lifetime.
 */
export interface AuthStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Adds `member` to the set at `key`, which lives at least `ttlSeconds` more. */
  add(key: string, member: string, ttlSeconds: number): Promise<void>;
  members(key: string): Promise<readonly string[]>;
  /**
   * Adds `amount` to the counter at `key` (made with `ttlSeconds` when new) and answers the new total, atomically:
   * the bounds of anonymous requests count with it, shared by every instance on the store. Optional: without it
   * they count with `get` and `set`.
   */
  increment?(key: string, amount: number, ttlSeconds: number): Promise<number>;
}

/**
 * Bounds of the requests anyone can make before signing in — client registrations, authorization requests, the
 * start of a login, pushed authorization requests — which leave state in the store. Counted per client address
 * and in all, in windows; a refused request gets 429 (its address) or 503 (all), with `Retry-After`.
 */
export interface AnonymousLimitOptions {
  /** Seconds of one window; a registration never used for a grant is forgotten after one window. Default 1800. */
  readonly window?: number;
  /** Requests one client address may make per window. Default 100. */
  readonly maxRequestsPerClient?: number;
  /** Bytes (targets and bodies) one client address may send per window. Default 1 MiB. */
  readonly maxBytesPerClient?: number;
  /** Bytes all anonymous requests together may send per window. Default 8 MiB. */
  readonly maxBytes?: number;
}

/** Keys of the authorization server; give the same ones to every instance (and keep them across restarts). */
export interface AuthorizationServerKeys {
  /** Private JWKs (with `kid`) that sign access tokens; the first signs, the others still verify (rotation). Default: one ES256 key made at start. */
  readonly signing?: readonly Record<string, unknown>[];
  /** Secrets that sign cookies; the first signs. Default: a random one made at start. */
  readonly cookies?: readonly string[];
  /** 32 bytes (base64 or base64url) that encrypt upstream tokens (AES-256-GCM). Default: random, made at start. */
  readonly upstreamTokens?: string;
  /**
   * Signing keys made and rotated by the server instead of `signing`, kept (sealed with `upstreamTokens`) in the
   * store, so every instance on it signs with the same key: a new key every `every` seconds, published
   * `publishAhead` seconds (default: an hour, at most half of `every`) before it signs, the old one kept for
   * verification until the tokens it signed expire.
   */
  readonly rotation?: { readonly every: number; readonly publishAhead?: number };
}

/** Client ID Metadata Documents (the client id is an https URL the server fetches). */
export interface ClientIdMetadataDocumentOptions {
  /** Default true. */
  readonly enabled?: boolean;
  /**
   * Fetch documents from loopback, private and link-local addresses. Default false: such documents are refused
   * before any connection (and a host that resolves to one at connect time is cut off).
   */
  readonly allowPrivateNetworks?: boolean;
  /** Only these client ids (or those that the function accepts). Default: any https URL. */
  readonly allow?: readonly string[] | ((clientId: string) => boolean);
  /** The fetch used (e.g. with a dispatcher that trusts an internal CA). Default: the global fetch. */
  readonly fetch?: typeof fetch;
}

/**
 * `auth.server`: this server is also the authorization server of its MCP endpoint, in front of an upstream
 * login (docs/auth.md, "Sign-in for Claude, ChatGPT and IDEs"). oidc-provider and openid-client must be installed.
 */
export interface AuthorizationServerOptions {
  readonly upstream: UpstreamOptions;
  /** The issuer (its origin serves `/.well-known/oauth-authorization-server` and `/oauth/*`). Default: the MCP endpoint's origin. */
  readonly issuer?: string;
  /** Scopes clients may ask for (the resource's). Default `auth.scopesSupported`, else none. */
  readonly scopes?: readonly string[];
  /** Default: in memory (one instance). */
  readonly store?: AuthStore;
  readonly keys?: AuthorizationServerKeys;
  /**
   * The consent page: shown once per user and client (then remembered), unless the client is first-party
   * (`skip` names it). Default: shown.
   */
  readonly consent?: { readonly skip?: readonly string[] | ((clientId: string) => boolean); readonly rememberDays?: number };
  /** Dynamic Client Registration (RFC 7591). Default true. */
  readonly registration?: boolean;
  /** Pushed authorization requests (RFC 9126, `/oauth/par`). Default false: MCP clients do not use them. */
  readonly pushedAuthorizationRequests?: boolean;
  /** Bounds of anonymous requests (registrations, authorization requests), per client address and in all. */
  readonly anonymous?: AnonymousLimitOptions;
  readonly clientIdMetadataDocuments?: ClientIdMetadataDocumentOptions;
  /** Lifetimes in seconds: access token (default 3600), refresh token (default 14 days), login session (default 1 day). */
  readonly ttl?: { readonly accessToken?: number; readonly refreshToken?: number; readonly session?: number };
  /** Behind a TLS-terminating proxy: trust `X-Forwarded-For` and `-Proto`. The URLs the server builds are always the issuer's. Default false. */
  readonly proxy?: boolean;
  /**
   * Machine clients (the client credentials grant, RFC 6749 §4.4; MCP's SEP-1046): CI jobs and agents acting for
   * themselves, with no user and no browser. Default: none (the grant is not offered).
   */
  readonly machineClients?: MachineClientOptions;
  /**
   * Enterprise-managed authorization (SEP-990): users an enterprise IdP vouches for with an Identity Assertion JWT
   * Authorization Grant (ID-JAG, the `urn:ietf:params:oauth:grant-type:jwt-bearer` grant) get tokens with no
   * browser and no consent page: the IdP's policy decides. Default: none (the grant is not offered).
   */
  readonly identityAssertion?: IdentityAssertionOptions;
}

/** Who may vouch for users with an ID-JAG, and which clients may present one (docs/auth.md#enterprise-sign-in). */
export interface IdentityAssertionOptions {
  /** The enterprise identity providers trusted to issue ID-JAGs for this server. */
  readonly issuers: readonly EnterpriseIssuer[];
  /** The clients (confidential: a secret or keys) that may present ID-JAGs, as the enterprise registered them here. */
  readonly clients: readonly AssertionClient[];
}

/** An enterprise identity provider (Okta, Entra ID, …) whose ID-JAGs this server accepts. */
export interface EnterpriseIssuer {
  /** Its issuer identifier (the ID-JAG's `iss`). */
  readonly issuer: string;
  /** Its public keys; or `jwksUri`; default: its metadata's `jwks_uri` (RFC 8414 or OpenID discovery). */
  readonly jwks?: { readonly keys: readonly Record<string, unknown>[] };
  readonly jwksUri?: string;
  /** The client ids (of `clients`) it may issue grants to. Default: all of them. */
  readonly clients?: readonly string[];
  /** The scopes its grants may carry. Default: all of the server's. */
  readonly scopes?: readonly string[];
  /** The user's subject here, from the assertion's claims. Default: its `sub`. */
  readonly subject?: (claims: Readonly<Record<string, unknown>>) => string | undefined;
}

/** A client that presents ID-JAGs: it authenticates with a secret (`client_secret_basic`) or keys (`private_key_jwt`). */
export interface AssertionClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly jwks?: { readonly keys: readonly Record<string, unknown>[] };
  readonly jwksUri?: string;
  /** Shown in logs. Default: the client id. */
  readonly name?: string;
}

/** Who may use the client credentials grant (docs/auth.md#machine-clients). */
export interface MachineClientOptions {
  /** Clients known up front. */
  readonly clients?: readonly MachineClient[];
  /**
   * Dynamic registration (RFC 7591) of machine clients — `grant_types: ["client_credentials"]`, authenticating with
   * `private_key_jwt` only — for a registration request that presents this initial access token
   * (`Authorization: Bearer …`, RFC 7591 §3). Without it, no registration may ask for the grant.
   */
  readonly registration?: { readonly initialAccessToken: string; /** The scopes such a client may ask for. Default none. */ readonly scopes?: readonly string[] };
}

/** A machine client known up front: it authenticates with a key (`private_key_jwt`, RFC 7523) or a secret. */
export interface MachineClient {
  readonly clientId: string;
  /** Its public keys (a JWK Set): it signs a client assertion (`private_key_jwt`). */
  readonly jwks?: { readonly keys: readonly Record<string, unknown>[] };
  /** Where its public keys are published (`private_key_jwt`). */
  readonly jwksUri?: string;
  /** A shared secret (`client_secret_basic` or `client_secret_post`): at least 32 characters. Prefer keys. */
  readonly clientSecret?: string;
  /** The scopes it may be granted: a subset of the server's. */
  readonly scopes: readonly string[];
  /** Shown in logs. Default: the client id. */
  readonly name?: string;
}
