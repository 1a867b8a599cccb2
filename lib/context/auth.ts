/**
 * The verified identity of a request: who the access token speaks for, what it allows, until when. Over HTTP
 * with `auth`, it comes from the bearer token; over stdio or in memory, from the `auth` given to `listen()`,
 * `connect()` or `createTestClient()`. Read it as `ctx.auth`, `context.auth` (guards) or `@CurrentAuth()`.
 */
export interface McpAuth {
  /** The token's subject (`sub`): the user, or the client itself for a client-credentials token. */
  readonly subject?: string;
  /**
   * The token speaks for a client acting for itself (client credentials from `auth.server.machineClients`):
   * `subject` is its client id, and no user signed in.
   */
  readonly machine?: boolean;
  /** The OAuth client the token was issued to (`client_id`, else `azp`). */
  readonly clientId: string;
  /** The granted scopes (`scope`, space-separated, or `scp`). */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch (`exp`). */
  readonly expiresAt?: number;
  /** The authorization server that issued it (`iss`). */
  readonly issuer?: string;
  /** Every claim of the token (a JWT's payload, or the introspection answer), as issued. */
  readonly claims: Readonly<Record<string, unknown>>;
  /** The access token itself (to call an upstream API on the user's behalf, exchange it first: never pass it on). */
  readonly token: string;
  /**
   * With `auth.server` (this server signed the user in at an upstream provider): that provider's tokens for
   * the user, decrypted on demand (`ctx.upstreamTokens()`); undefined when none are kept.
   */
  readonly upstreamTokens?: () => Promise<UpstreamTokens | undefined>;
}

/** The upstream provider's tokens for a user, kept encrypted and handed to tools through `ctx.upstreamTokens()`. */
export interface UpstreamTokens {
  /** The upstream provider's name (`github`, `google`, the preset or `name` given). */
  readonly provider: string;
  readonly accessToken: string;
  readonly tokenType?: string;
  readonly refreshToken?: string;
  /** Seconds since the epoch. */
  readonly expiresAt?: number;
  readonly scope?: string;
  readonly idToken?: string;
}

