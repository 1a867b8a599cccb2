import { loadDependency } from '../../runtime/peer';
import { toPeerRealm, type PeerRealmCopy } from '../../runtime/peer-realm';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, type ServerResponse } from 'node:http';
import { authFromClaims } from '../../context';
import { InvalidTokenError } from '../../errors';
import type { AuthOptions, AuthorizationServerOptions, DpopOptions, AuthStore, McpAuth, UpstreamIdentity, UpstreamTokens } from '../../interfaces';
import type { ServerLogger } from '../../interfaces';
import { MemoryAuthStore } from './auth-stores';
import { tokenRejection } from '../jwt-verifier';
import { LRUCache } from 'lru-cache';
import { AnonymousAdmission, anonymousLimits, isAnonymousWrite, requestCost } from './anonymous-admission';
import { Interactions } from './interactions';
import { Logout } from './logout';
import { oidcAdapter, type OidcAdapterClass } from './oidc-adapter';
import type { OidcContext, OidcGrant, OidcProvider, OidcProviderModule } from './oidc-provider.types';
import { errorPage } from './pages';
import { canonicalAuthorization, checkedTokenRequest } from './resource-indicator';
import { withDpop } from './dpop-issuing';
import { checkServerOptions, peer } from './server-options';
import { TokenSealer } from './sealed-tokens';
import { generatedKey, publicPart } from './signing-keys';
import { UpstreamLogin } from './upstream-login';
import { UpstreamTokenKeeper } from './upstream-tokens';
import { KeyRing } from './key-ring';
import { DpopVerifier } from '../dpop';
import { providerConfiguration, type ConfigurationHost } from './provider-configuration';
import { rememberKey, type Account } from './accounts';
import { assertionGrant, checkIdentityAssertion, IdentityAssertions, JWT_BEARER, type AcceptedAssertion, type AssertionGrantHost } from './identity-assertion';

export type { Account } from './accounts';
import { checkMachineClients, isMachineToken, machineClients, machineScopesOf, narrowMachineScope, type MachineClientConfiguration } from './machine-clients';
import { OAUTH_PREFIX, ROUTES, WELL_KNOWN, withDefaultScope } from './routes';
import { foreignTokens, sideBySide } from './token-sources';

export { OAUTH_PREFIX } from './routes';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });

/** How long a grant seen alive is trusted without looking again (other instances' revocations take this long). */
const GRANT_CHECK_MS = 5_000;

/**
 * The authorization server of an MCP endpoint (`auth.server`), on oidc-provider: RFC 8414 metadata, the
 * authorization, token, revocation, registration (RFC 7591) and JWKS endpoints, PKCE S256 only, RFC 8707
 * resource indicators bound into the JWT access token's `aud`, RFC 9207 `iss`, refresh-token rotation, Client ID
 * Metadata Documents; users sign in at the upstream provider (./upstream-login.ts) and consent once per client.
 */
export class AuthorizationServer implements AssertionGrantHost {
  readonly issuer: string;
  readonly scopes: readonly string[];
  readonly store: AuthStore;
  readonly sealer: TokenSealer;
  provider!: OidcProvider;
  readonly upstream: UpstreamLogin;
  private readonly upstreamTokens: UpstreamTokenKeeper;
  readonly ttl: { readonly accessToken: number; readonly refreshToken: number; readonly session: number };
  /** Options, hook results, payloads and interaction results for oidc-provider, made in its realm (../../runtime/peer-realm.ts). */
  readonly toProvider: PeerRealmCopy;
  readonly errors: OidcProviderModule['errors'];
  private callback!: (req: IncomingMessage, res: ServerResponse) => void;
  private readonly cookies: string[];
  private readonly install: (keys: Record<string, unknown>[]) => void;
  /** keys.rotation: the ring, and when its keys were first read (requests wait for them). */
  private ring?: KeyRing;
  private ready: Promise<void> = Promise.resolve();
  private keysRead = false;
  /** The DPoP proofs of ID-JAG token requests (`auth.dpop`). */
  private proofs?: DpopVerifier;
  private readonly interactions: Interactions;
  private readonly csrfKey: string;
  private readonly jose: Jose;
  private keySet!: ReturnType<Jose['createLocalJWKSet']>;
  private readonly admission: AnonymousAdmission;
  private readonly adapter: OidcAdapterClass;
  private readonly logout: Logout;
  /** Grants seen not revoked lately, each for GRANT_CHECK_MS: another instance's revocation takes at most this long. */
  private readonly liveGrants = new LRUCache<string, true>({ max: 10_000, ttl: GRANT_CHECK_MS });
  private readonly issuerUrl: URL;
  private readonly signingAlg: string;

  constructor(
    readonly options: AuthorizationServerOptions,
    readonly resource: string,
    scopesSupported: readonly string[] | undefined,
    readonly logger: ServerLogger,
    private readonly dpop?: AuthOptions['dpop'], // DPoP-bound tokens for clients that send proofs (./dpop-issuing.ts)
  ) {
    checkServerOptions(options);
    // Loaded when a server with `auth.server` starts: the core never loads them (optional peers, ESM-only).
    const oidc = peer<OidcProviderModule>('oidc-provider');
    this.toProvider = toPeerRealm(oidc);
    this.jose = loadDependency<Jose>('jose', { feature: 'auth.server (the authorization server)' }, () => require('jose'));
    this.issuer = (options.issuer ?? new URL(resource).origin).replace(/\/$/, '');
    this.issuerUrl = new URL(this.issuer);
    this.scopes = [...(options.scopes ?? scopesSupported ?? [])];
    checkMachineClients(options.machineClients, this.scopes);
    checkIdentityAssertion(options.identityAssertion, this.scopes);
    this.store = options.store ?? new MemoryAuthStore();
    this.admission = new AnonymousAdmission(this.store, anonymousLimits(options.anonymous));
    this.errors = oidc.errors;
    const machines = machineClients(options.machineClients, oidc.errors, options.identityAssertion?.clients);
    this.adapter = oidcAdapter(this.store, this.admission.limits.window, this.toProvider, new Map(machines.clients.map((c) => [String(c.client_id), c])));
    this.logout = new Logout(this.store, (grantId) => this.revokeGrant(grantId));
    this.sealer = new TokenSealer(options.keys?.upstreamTokens);
    this.ttl = { accessToken: options.ttl?.accessToken ?? 3600, refreshToken: options.ttl?.refreshToken ?? 14 * 86_400, session: options.ttl?.session ?? 86_400 };
    const rotation = options.keys?.rotation;
    const signing = options.keys?.signing?.map((k) => ({ ...k })) ?? [generatedKey()];
    this.signingAlg = rotation ? 'ES256' : (signing[0].alg as string);
    this.cookies = [...(options.keys?.cookies ?? [randomBytes(32).toString('base64url')])];
    this.csrfKey = this.cookies[0];
    this.upstream = new UpstreamLogin(options.upstream, `${this.issuer}${OAUTH_PREFIX}callback`);
    this.upstreamTokens = new UpstreamTokenKeeper(this.store, this.sealer, this.upstream, { account: (sub) => this.account(sub), ttl: this.ttl.refreshToken }, logger);
    this.install = (keys) => this.installProvider(oidc, keys, machines, options.identityAssertion && new IdentityAssertions(options.identityAssertion, this.jose, this));
    this.install(signing);
    this.interactions = new Interactions(this);
    if (!rotation) return;
    // Keys of the ring (./key-ring.ts): requests wait until they are read; each change installs them.
    const publishAhead = rotation.publishAhead ?? Math.min(3600, Math.floor(rotation.every / 2));
    const ring = (this.ring = new KeyRing(this.store, this.sealer, { every: rotation.every, publishAhead, keep: this.ttl.accessToken + 60 }, logger));
    this.ready = ring.current().then((keys) => {
      ring.loaded(keys);
      this.install(keys);
      ring.start((changed) => this.install(changed));
    });
    this.ready.catch((error: unknown) => logger.error(`auth server: the signing keys could not be read from the store: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** oidc-provider with these signing keys (the first signs): made at start, and again when the ring turns. */
  private installProvider(oidc: OidcProviderModule, signing: Record<string, unknown>[], machines: MachineClientConfiguration, assertions?: IdentityAssertions): void {
    const provider = new oidc.default(this.issuer, this.toProvider(withDpop(providerConfiguration(this.configurationHost(), oidc, signing, this.cookies, machines), this.dpop)));
    provider.proxy = this.options.proxy ?? false;
    if (assertions) provider.registerGrantType(JWT_BEARER, assertionGrant(assertions, this), ['assertion', 'scope', 'resource']);
    // A revoked grant (a replayed code, a reused refresh token, a revocation) is noted for as long as its access
    // tokens live: the resource server refuses them from then on, on every instance of the store.
    provider.on('grant.revoked', (_ctx: unknown, grantId: unknown) => {
      this.noteRevoked(String(grantId)).catch((error: unknown) => this.logger.warn(`auth server: revocation not recorded: ${error instanceof Error ? error.message : String(error)}`));
    });
    this.logout.attach(provider, (message) => this.logger.warn(message));
    this.keySet = this.jose.createLocalJWKSet({ keys: signing.map(publicPart) as never });
    this.provider = provider;
    this.callback = provider.callback();
  }

  /**
   * The DPoP key of an ID-JAG token request (./identity-assertion.ts; oidc-provider binds its own grants' tokens):
   * its proof checked for POST at the token endpoint and spent; none without `auth.dpop`, or without a proof
   * unless `dpop.required`. Server nonces are the resource server's only.
   */
  async dpopKey(ctx: { get(header: string): string }): Promise<string | undefined> {
    if (this.dpop === undefined || this.dpop === false) return undefined;
    const options: DpopOptions = this.dpop === true ? {} : { ...this.dpop, nonce: undefined };
    const header = ctx.get('dpop');
    if (!header) {
      if (options.required) throw new this.errors.InvalidDpopProof('a DPoP proof is required');
      return undefined;
    }
    const endpoint = `${this.issuer}${ROUTES.token}`;
    const verifier = (this.proofs ??= new DpopVerifier(options, endpoint, 30));
    try {
      const proof = await verifier.proofOf(new Request(endpoint, { method: 'POST', headers: { dpop: header } }));
      verifier.spend(proof);
      return proof.thumbprint;
    } catch (error) {
      throw new this.errors.InvalidDpopProof(error instanceof Error ? error.message : 'the DPoP proof is invalid');
    }
  }

  /** What ./provider-configuration.ts reads of this server. */
  private configurationHost(): ConfigurationHost {
    return { server: this, adapter: this.adapter, logout: this.logout, existingGrant: (ctx) => this.existingGrant(ctx) };
  }

  /** Stops the ring's checks (keys.rotation). */
  close(): void {
    this.ring?.stop();
  }

  /** RFC 8707: access tokens for this endpoint are JWTs with its audience, signed with the first key. */
  resourceServer(): Record<string, unknown> {
    return { scope: this.scopes.join(' '), audience: this.resource, accessTokenTTL: this.ttl.accessToken, accessTokenFormat: 'jwt', jwt: { sign: { alg: this.signingAlg } } };
  }

  /** Paths this server answers (exact); and every path under `/oauth/`. */
  get paths(): readonly string[] {
    return WELL_KNOWN;
  }

  /** The scopes a machine client may have (those its metadata names), or undefined for any other client. */
  private async machineScopes(clientId: string): Promise<readonly string[] | undefined> {
    const client = await new this.adapter('Client').find(clientId).catch(() => undefined);
    const grants = client?.grant_types;
    return Array.isArray(grants) && grants.includes('client_credentials') ? machineScopesOf(client?.scope) : undefined;
  }

  /** The sign-in, consent and logout pages (and the upstream provider's redirect to them): browser navigations. */
  isPage(pathname: string): boolean {
    return this.interactions.handles(pathname) || pathname === ROUTES.end_session || pathname.startsWith(`${ROUTES.end_session}/`);
  }

  handles(pathname: string): boolean {
    return pathname.startsWith(OAUTH_PREFIX) || WELL_KNOWN.includes(pathname);
  }

  /**
   * A request for the authorization server: its metadata, its endpoints, or the login and consent pages.
   * `client`: who it comes from, for the bounds of anonymous requests (the HTTP endpoint's client key).
   */
  handle(req: IncomingMessage, res: ServerResponse, client?: string): void {
    if (this.ring && !this.keysRead) {
      this.ready.then(
        () => ((this.keysRead = true), this.handle(req, res, client)),
        () => errorPage(res, 503, 'The sign-in service is unavailable. Retry shortly.'),
      );
      return;
    }
    const { pathname } = new URL(req.url ?? '/', 'http://x');
    // Every URL the provider builds (the metadata's endpoints, redirects) is the configured issuer's, never one
    // the request's Host or X-Forwarded-* headers name.
    this.pinOrigin(req);
    if (isAnonymousWrite(req.method, pathname)) {
      void this.admission.admit(client, requestCost(req)).then(
        (refused) => {
          if (!refused) return this.serve(req, res, pathname);
          req.resume();
          const headers = { 'retry-after': String(refused.retryAfter), 'cache-control': 'no-store', connection: 'close' };
          if (pathname === ROUTES.authorization || pathname.startsWith(`${OAUTH_PREFIX}interaction/`)) return errorPage(res, refused.status, refused.message, undefined, headers);
          const error = refused.status === 429 ? 'too_many_requests' : 'temporarily_unavailable';
          res.writeHead(refused.status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ error, error_description: refused.message }));
        },
        (error: unknown) => {
          this.logger.warn(`auth server: ${error instanceof Error ? error.message : String(error)}`);
          if (!res.headersSent) errorPage(res, 503, 'The sign-in service is unavailable. Retry shortly.');
        },
      );
      return;
    }
    this.serve(req, res, pathname);
  }

  private pinOrigin(req: IncomingMessage): void {
    req.headers.host = this.issuerUrl.host;
    if (this.provider.proxy) {
      req.headers['x-forwarded-host'] = this.issuerUrl.host;
      req.headers['x-forwarded-proto'] = this.issuerUrl.protocol.slice(0, -1);
    } else {
      delete req.headers['x-forwarded-host'];
      delete req.headers['x-forwarded-proto'];
    }
  }

  private serve(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    // RFC 8414 metadata is the same document as OpenID discovery; public and the same for everyone: cached.
    if (pathname === WELL_KNOWN[0] || pathname === WELL_KNOWN[1]) {
      req.url = WELL_KNOWN[1];
      res.setHeader('cache-control', 'public, max-age=3600');
    }
    if (pathname === ROUTES.authorization) req.url = canonicalAuthorization(withDefaultScope(req.url ?? '/', this.issuer, this.scopes), this.issuer, this.resource);
    if (pathname === ROUTES.token && req.method === 'POST') {
      void checkedTokenRequest(req, this.resource, (form, authorization) => narrowMachineScope(form, authorization, (id) => this.machineScopes(id))).then(
        (checked) => {
          if (checked instanceof IncomingMessage) return this.callback(checked, res);
          res.writeHead(checked.status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ error: checked.error, error_description: checked.description }));
        },
        (error: unknown) => {
          this.logger.warn(`auth server: token request: ${error instanceof Error ? error.message : String(error)}`);
          res.destroy();
        },
      );
      return;
    }
    if (this.interactions.handles(pathname)) {
      void this.interactions.handle(req, res, pathname).catch((error: unknown) => {
        this.logger.warn(`auth server: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) errorPage(res, 500, 'Something went wrong while signing you in. Start again from the application.');
        else res.destroy();
      });
      return;
    }
    this.callback(req, res);
  }

  /** The resource server's options for tokens of this server: its issuer, verified with its own keys. */
  resourceOptions(auth: AuthOptions): AuthOptions {
    const tolerance = auth.clockToleranceSec ?? 30;
    const ours = { issuer: this.issuer, verify: (token: string) => this.verify(token, tolerance), recheck: (verified: McpAuth) => this.notRevoked(verified) };
    return { ...auth, ...sideBySide(ours, foreignTokens(auth, this.resource)), scopesSupported: auth.scopesSupported ?? this.scopes };
  }

  private async verify(token: string, clockTolerance: number): Promise<McpAuth> {
    await this.ready;
    let payload: Awaited<ReturnType<Jose['jwtVerify']>>['payload'];
    try {
      ({ payload } = await this.jose.jwtVerify(token, this.keySet, {
        issuer: this.issuer,
        audience: [this.resource, this.resource.endsWith('/') ? this.resource.slice(0, -1) : `${this.resource}/`],
        typ: 'at+jwt',
        clockTolerance,
      }));
    } catch (error) {
      throw tokenRejection(error);
    }
    const auth = authFromClaims(token, payload);
    await this.notRevoked(auth);
    // A machine client's token (client credentials) speaks for no user: no upstream tokens.
    if (isMachineToken(payload)) return { ...auth, machine: true };
    const sub = auth.subject;
    return sub === undefined ? auth : { ...auth, upstreamTokens: () => this.upstreamTokens.of(sub) };
  }

  private async notRevoked(auth: McpAuth): Promise<void> {
    const grantId = auth.claims.grant_id;
    if (typeof grantId === 'string' && !(await this.grantAlive(grantId))) throw new InvalidTokenError('The access token has been revoked.');
  }

  /**
   * Whether a grant was not revoked: one lookup in the shared store, remembered for five seconds — and forgotten
   * at once when this instance revokes it.
   */
  private async grantAlive(grantId: string): Promise<boolean> {
    if (this.liveGrants.get(grantId)) return true;
    const alive = (await this.store.get(`revoked:${grantId}`)) === undefined;
    if (alive) this.liveGrants.set(grantId, true);
    else this.liveGrants.delete(grantId);
    return alive;
  }

  async account(sub: string): Promise<Account | undefined> {
    const raw = await this.store.get(`account:${sub}`);
    return raw === undefined ? undefined : (JSON.parse(raw) as Account);
  }

  /** A user an enterprise IdP vouched for: their identity (and upstream tokens of an earlier sign-in, kept). */
  async saveAssertedAccount(accepted: AcceptedAssertion): Promise<void> {
    const upstream = (await this.account(accepted.subject))?.upstream;
    const account: Account = { identity: accepted.identity, idp: accepted.issuer, ...(upstream !== undefined ? { upstream } : {}) };
    await this.store.set(`account:${accepted.subject}`, JSON.stringify(account), this.ttl.refreshToken);
  }

  /** Keeps the user's identity and their upstream tokens, sealed (AES-256-GCM) for this subject. */
  async saveAccount(identity: UpstreamIdentity, tokens: UpstreamTokens): Promise<void> {
    const account: Account = { identity, upstream: this.upstreamTokens.seal(identity.subject, tokens) };
    await this.store.set(`account:${identity.subject}`, JSON.stringify(account), this.ttl.refreshToken);
  }

  /** A consent given before, by this user to this client (remembered beyond the login session). */
  private async existingGrant(ctx: OidcContext): Promise<OidcGrant | undefined> {
    const clientId = ctx.oidc.client?.clientId;
    const accountId = ctx.oidc.session?.accountId;
    if (!clientId || !accountId) return undefined;
    const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(clientId) ?? (await this.store.get(rememberKey(accountId, clientId)));
    return grantId ? this.provider.Grant.find(grantId) : undefined;
  }

  async remember(accountId: string, clientId: string, grantId: string): Promise<void> {
    const ttl = (this.options.consent?.rememberDays ?? 30) * 86_400;
    await this.store.set(rememberKey(accountId, clientId), grantId, ttl);
    await this.logout.remembered(accountId, rememberKey(accountId, clientId), ttl);
  }

  /** Ends a grant: its codes and refresh tokens go, and its access tokens are refused from now on. */
  private async revokeGrant(grantId: string): Promise<void> {
    await new this.adapter('Grant').revokeByGrantId(grantId);
    await new this.adapter('Grant').destroy(grantId);
    await this.noteRevoked(grantId);
  }

  private async noteRevoked(grantId: string): Promise<void> {
    this.liveGrants.delete(grantId);
    await this.store.set(`revoked:${grantId}`, '1', this.ttl.accessToken + 60);
  }

  /** Consent is skipped for the first-party clients `consent.skip` names. */
  skipsConsent(clientId: string): boolean {
    const skip = this.options.consent?.skip;
    return typeof skip === 'function' ? skip(clientId) : (skip ?? []).includes(clientId);
  }

  /** The consent form's CSRF token: bound to the interaction, signed with the cookie key. */
  csrf(uid: string): string {
    return createHmac('sha256', this.csrfKey).update(`consent:${uid}`).digest('base64url');
  }

  csrfMatches(uid: string, token: string | null): boolean {
    const expected = Buffer.from(this.csrf(uid));
    const given = Buffer.from(token ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
