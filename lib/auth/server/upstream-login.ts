import type { UpstreamIdentity, UpstreamOptions, UpstreamTokens } from '../../interfaces';
import { toPeerRealm, type PeerRealmCopy } from '../../runtime/peer-realm';
import { peer } from './server-options';

type OpenIdClient = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });
type Configuration = InstanceType<OpenIdClient['Configuration']>;

/** Why an upstream login failed, with the OAuth error the client gets and a sentence the user reads. */
export class UpstreamLoginError extends Error {
  constructor(
    readonly error: 'access_denied' | 'server_error' | 'temporarily_unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamLoginError';
  }
}

/** What a finished upstream login yields: who the user is, and the upstream tokens (to keep encrypted). */
export interface UpstreamResult {
  readonly identity: UpstreamIdentity;
  readonly tokens: UpstreamTokens;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The login at the upstream provider, through openid-client: the authorization request (code + PKCE S256 and
 * a state), then, on the callback, the code exchange (checking `state` and RFC 9207 `iss`) and the identity.
 */
export class UpstreamLogin {
  readonly name: string;
  private readonly client: OpenIdClient;
  /** Plain data for openid-client, in its realm (./peer-realm.ts: under jest, Node loads it outside the sandbox). */
  private readonly toClient: PeerRealmCopy;
  private configuration?: Promise<Configuration>;

  constructor(
    private readonly options: UpstreamOptions,
    private readonly redirectUri: string,
  ) {
    // Loaded when a server with `auth.server` starts: the core never loads it (an optional peer, ESM-only).
    this.client = peer<OpenIdClient>('openid-client');
    this.toClient = toPeerRealm(this.client);
    this.name = options.name ?? new URL(options.issuer).host;
  }

  private config(): Promise<Configuration> {
    if (!this.configuration) {
      const { options, client, toClient } = this;
      const insecure = options.allowInsecureRequests ?? (new URL(options.issuer).protocol === 'http:' && LOOPBACK.has(new URL(options.issuer).hostname));
      const auth = options.clientSecret !== undefined ? client.ClientSecretPost(options.clientSecret) : client.None();
      const made = options.authorizationEndpoint
        ? Promise.resolve(
            new client.Configuration(
              toClient({ issuer: options.issuer, authorization_endpoint: options.authorizationEndpoint, token_endpoint: options.tokenEndpoint }),
              options.clientId,
              undefined,
              auth,
            ),
          ).then((config) => (insecure && client.allowInsecureRequests(config), config))
        : client.discovery(new URL(options.issuer), options.clientId, undefined, auth, insecure ? toClient({ execute: [client.allowInsecureRequests] }) : undefined);
      // A failed discovery is tried again at the next login (the provider may be back).
      this.configuration = made.catch((error: unknown) => {
        this.configuration = undefined;
        throw new UpstreamLoginError('temporarily_unavailable', `${this.name} cannot be reached right now (${messageOf(error)}). Try again in a moment.`);
      });
    }
    return this.configuration;
  }

  /** The URL the user's browser goes to, and what to keep until the callback. */
  async start(state: string): Promise<{ url: URL; verifier: string }> {
    const config = await this.config();
    const verifier = this.client.randomPKCECodeVerifier();
    const url = this.client.buildAuthorizationUrl(
      config,
      this.toClient({
        redirect_uri: this.redirectUri,
        scope: (this.options.scopes ?? ['openid', 'email', 'profile']).join(' '),
        code_challenge: await this.client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        ...this.options.authorizationParams,
      }),
    );
    return { url, verifier };
  }

  /** The callback: the code exchanged, the identity read. Throws UpstreamLoginError with what to tell the user. */
  async finish(callback: URL, state: string, verifier: string): Promise<UpstreamResult> {
    const denied = callback.searchParams.get('error');
    if (denied) {
      const description = callback.searchParams.get('error_description');
      throw new UpstreamLoginError('access_denied', `${this.name} did not sign you in (${denied}${description ? `: ${description}` : ''}).`);
    }
    const config = await this.config();
    let response: Awaited<ReturnType<OpenIdClient['authorizationCodeGrant']>>;
    try {
      // The redirect URI the code was issued for is the callback's (the browser came on through the interaction's path).
      const current = new URL(this.redirectUri);
      current.search = callback.search;
      response = await this.client.authorizationCodeGrant(config, current, this.toClient({ pkceCodeVerifier: verifier, expectedState: state }));
    } catch (error) {
      throw new UpstreamLoginError('server_error', `Signing in at ${this.name} failed: ${messageOf(error)}.`);
    }
    const tokens = this.tokensOf(response);
    const claims = response.claims() as Record<string, unknown> | undefined;
    try {
      const identity = this.options.identity ? await this.options.identity(tokens, claims) : await this.oidcIdentity(config, tokens, claims);
      return { identity, tokens };
    } catch (error) {
      if (error instanceof UpstreamLoginError) throw error;
      throw new UpstreamLoginError('server_error', `${this.name} signed you in, but who you are could not be read: ${messageOf(error)}.`);
    }
  }

  /** New upstream tokens for a refresh token (the refresh token kept when the provider does not rotate it). */
  async refresh(refreshToken: string): Promise<UpstreamTokens> {
    const config = await this.config();
    try {
      const tokens = this.tokensOf(await this.client.refreshTokenGrant(config, refreshToken));
      return tokens.refreshToken ? tokens : { ...tokens, refreshToken };
    } catch (error) {
      throw new UpstreamLoginError('server_error', `${this.name} did not refresh the token: ${messageOf(error)}.`);
    }
  }

  private tokensOf(response: { access_token: string; token_type?: string; refresh_token?: string; expires_in?: number; scope?: string; id_token?: string }): UpstreamTokens {
    return {
      provider: this.name,
      accessToken: response.access_token,
      ...(response.token_type ? { tokenType: response.token_type } : {}),
      ...(response.refresh_token ? { refreshToken: response.refresh_token } : {}),
      ...(response.expires_in !== undefined ? { expiresAt: Math.floor(Date.now() / 1000) + response.expires_in } : {}),
      ...(response.scope ? { scope: response.scope } : {}),
      ...(response.id_token ? { idToken: response.id_token } : {}),
    };
  }

  /** The ID token's claims, completed by the userinfo endpoint when there is one. */
  private async oidcIdentity(config: Configuration, tokens: UpstreamTokens, claims: Record<string, unknown> | undefined): Promise<UpstreamIdentity> {
    let all: Record<string, unknown> = { ...claims };
    if (config.serverMetadata().userinfo_endpoint && typeof claims?.sub === 'string') {
      all = { ...(await this.client.fetchUserInfo(config, tokens.accessToken, claims.sub)), ...all };
    }
    if (typeof all.sub !== 'string') throw new Error('no subject (is the openid scope asked for?)');
    return identityFromClaims(all);
  }
}

/** An identity from OpenID Connect claims (`sub`, `email`, `name`, `preferred_username`, `groups` or `roles`). */
export function identityFromClaims(claims: Readonly<Record<string, unknown>>): UpstreamIdentity {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const groups = Array.isArray(claims.groups) ? claims.groups : Array.isArray(claims.roles) ? claims.roles : undefined;
  const identity: UpstreamIdentity = {
    subject: String(claims.sub),
    ...(text(claims.email) ? { email: text(claims.email) } : {}),
    ...(text(claims.name) ? { name: text(claims.name) } : {}),
    ...(text(claims.preferred_username) ? { username: text(claims.preferred_username) } : {}),
    ...(groups ? { groups: groups.filter((g): g is string => typeof g === 'string') } : {}),
  };
  return identity;
}

function messageOf(error: unknown): string {
  // openid-client's ResponseBodyError carries the provider's OAuth error: what the user (and admin) can act on.
  const oauth = error as { error?: unknown; error_description?: unknown };
  if (typeof oauth?.error === 'string') return `${oauth.error}${typeof oauth.error_description === 'string' ? `: ${oauth.error_description}` : ''}`.replace(/\.$/, '');
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${message}${cause}`.replace(/\.$/, '');
}
