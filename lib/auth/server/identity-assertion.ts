import { createHash } from 'node:crypto';
import { sameResource } from '../../context';
import type { AuthStore, EnterpriseIssuer, IdentityAssertionOptions, UpstreamIdentity } from '../../interfaces';
import { discoverMetadata } from '../discovery';
import type { PeerRealmCopy } from '../../runtime/peer-realm';
import type { OidcProviderModule } from './oidc-provider.types';
import { checkClientCredentials, fail } from './server-options';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
type KeySet = ReturnType<Jose['createLocalJWKSet']>;

/** The grant an ID-JAG is presented with (RFC 7523 §2.1). */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The media type an ID-JAG declares (SEP-990; draft-ietf-oauth-identity-assertion-authz-grant). */
const ID_JAG_TYP = 'oauth-id-jag+jwt';
/** An ID-JAG is short-lived: one issued longer ago than this is refused whatever its `exp`. */
const MAX_AGE = '10m';

/** Why an ID-JAG is refused: the OAuth error, and the reason given to the client. */
export class AssertionRefusal extends Error {
  constructor(
    readonly error: 'invalid_grant' | 'invalid_scope',
    reason: string,
  ) {
    super(reason);
  }
}

/** What an accepted ID-JAG grants: whom, from which IdP, with which scopes. */
export interface AcceptedAssertion {
  readonly subject: string;
  readonly issuer: string;
  readonly identity: UpstreamIdentity;
  readonly scopes: readonly string[];
}

/**
 * The ID-JAGs of `auth.server.identityAssertion` (SEP-990): signed by a trusted enterprise IdP (its keys, given or
 * discovered), `typ` oauth-id-jag+jwt, `aud` this issuer, `resource` this MCP endpoint, `client_id` the client
 * presenting it (one the IdP may issue to), within their lifetime, and each used once (`jti`, kept in the store
 * until it expires: shared by every instance).
 */
export class IdentityAssertions {
  private readonly issuers = new Map<string, { readonly options: EnterpriseIssuer; keys?: KeySet }>();

  constructor(
    options: IdentityAssertionOptions,
    private readonly jose: Jose,
    private readonly server: { readonly issuer: string; readonly resource: string; readonly scopes: readonly string[]; readonly store: AuthStore },
  ) {
    for (const issuer of options.issuers) this.issuers.set(issuer.issuer, { options: issuer });
  }

  async accept(assertion: string, clientId: string, requestedScope: string | undefined): Promise<AcceptedAssertion> {
    let header: { typ?: string };
    let unverified: { iss?: unknown };
    try {
      header = this.jose.decodeProtectedHeader(assertion) as { typ?: string };
      unverified = this.jose.decodeJwt(assertion);
    } catch {
      throw new AssertionRefusal('invalid_grant', 'the assertion is not a JWT');
    }
    if (String(header.typ ?? '').toLowerCase() !== ID_JAG_TYP) throw new AssertionRefusal('invalid_grant', `the assertion is not an ID-JAG (typ ${ID_JAG_TYP})`);
    const trusted = typeof unverified.iss === 'string' ? this.issuers.get(unverified.iss) : undefined;
    if (!trusted) throw new AssertionRefusal('invalid_grant', 'the assertion was issued by an identity provider this server does not trust');
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await this.jose.jwtVerify(assertion, await this.keysOf(trusted), {
        issuer: trusted.options.issuer,
        audience: [this.server.issuer, `${this.server.issuer}/`],
        typ: ID_JAG_TYP,
        maxTokenAge: MAX_AGE,
        requiredClaims: ['exp', 'iat', 'jti', 'sub'],
        clockTolerance: 30,
      }));
    } catch (error) {
      throw new AssertionRefusal('invalid_grant', reasonOf(error));
    }
    if (typeof claims.resource !== 'string' || !sameResource(claims.resource, this.server.resource)) throw new AssertionRefusal('invalid_grant', `the assertion is not for this resource (${this.server.resource})`);
    if (claims.client_id !== clientId) throw new AssertionRefusal('invalid_grant', 'the assertion was issued to another client');
    if (trusted.options.clients && !trusted.options.clients.includes(clientId)) throw new AssertionRefusal('invalid_grant', 'this identity provider may not issue grants to this client');
    const subject = trusted.options.subject ? trusted.options.subject(claims) : (claims.sub as string);
    if (typeof subject !== 'string' || subject === '') throw new AssertionRefusal('invalid_grant', 'the assertion names no subject');
    const scopes = this.scopesFor(trusted.options, requestedScope ?? (typeof claims.scope === 'string' ? claims.scope : undefined));
    await this.useOnce(trusted.options.issuer, String(claims.jti), Number(claims.exp));
    return { subject, issuer: trusted.options.issuer, identity: identityOf(subject, claims), scopes };
  }

  /** Those asked for that the IdP may grant and the server has (none asked: all of those). */
  private scopesFor(issuer: EnterpriseIssuer, asked: string | undefined): string[] {
    const allowed = (issuer.scopes ?? this.server.scopes).filter((scope) => this.server.scopes.includes(scope));
    const wanted = (asked ?? '').split(' ').filter(Boolean);
    if (wanted.length === 0) return allowed;
    const granted = wanted.filter((scope) => allowed.includes(scope));
    if (granted.length === 0) throw new AssertionRefusal('invalid_scope', `this identity provider's users may have ${allowed.join(' ') || 'no scope'} here`);
    return granted;
  }

  /** A replayed ID-JAG is refused: its `jti` is kept (per IdP) until it expires, in the shared store. */
  private async useOnce(issuer: string, jti: string, exp: number): Promise<void> {
    const key = `idjag:${createHash('sha256').update(`${issuer}\n${jti}`).digest('base64url')}`;
    const ttl = Math.max(60, Math.ceil(exp - Date.now() / 1000) + 60);
    const store = this.server.store;
    const seen = store.increment ? (await store.increment(key, 1, ttl)) > 1 : (await store.get(key)) !== undefined;
    if (!store.increment) await store.set(key, '1', ttl);
    if (seen) throw new AssertionRefusal('invalid_grant', 'the assertion was used before');
  }

  private async keysOf(trusted: { readonly options: EnterpriseIssuer; keys?: KeySet }): Promise<KeySet> {
    if (trusted.keys) return trusted.keys;
    const { jwks, jwksUri, issuer } = trusted.options;
    if (jwks) return (trusted.keys = this.jose.createLocalJWKSet({ keys: jwks.keys.map((k) => ({ ...k })) } as never));
    const uri = jwksUri ?? (await discoverMetadata(issuer).catch(() => ({}) as Record<string, unknown>)).jwks_uri;
    if (typeof uri !== 'string') throw new AssertionRefusal('invalid_grant', "the identity provider's keys could not be found; try again later");
    return (trusted.keys = this.jose.createRemoteJWKSet(new URL(uri), { timeoutDuration: 5_000, cooldownDuration: 30_000 }) as unknown as KeySet);
  }
}

/** What the jwt-bearer grant needs of the authorization server (./authorization-server.ts). */
export interface AssertionGrantHost {
  readonly resource: string;
  readonly errors: OidcProviderModule['errors'];
  readonly toProvider: PeerRealmCopy;
  /** The RFC 8707 resource server info access tokens for this endpoint are issued with. */
  resourceServer(): Record<string, unknown>;
  /** Keeps the user's identity from the IdP (the access token's claims are read from it). */
  saveAssertedAccount(accepted: AcceptedAssertion): Promise<void>;
  /** With `auth.dpop`: the thumbprint of the token request's DPoP proof (checked and spent), to bind the token to. */
  dpopKey(ctx: { get(header: string): string }): Promise<string | undefined>;
}

interface GrantContext {
  oidc: {
    client: { clientId: string };
    params: Record<string, unknown>;
    provider: {
      Grant: new (init: { accountId: string; clientId: string }) => { addResourceScope(resource: string, scope: string): void; save(): Promise<string> };
      AccessToken: new (init: Record<string, unknown>) => { resourceServer?: unknown; expiration: number; tokenType: string; scope?: string; setThumbprint(kind: 'jkt', thumbprint: string): void; save(): Promise<string> };
      ResourceServer: new (identifier: string, info: Record<string, unknown>) => unknown;
    };
    entity(name: string, value: unknown): void;
  };
  body?: unknown;
}

/**
 * The token endpoint's jwt-bearer grant (RFC 7523 §2.1) for ID-JAGs: the assertion accepted, the user's identity
 * kept, a grant made (so the token can be revoked like any other) and an access token for this endpoint issued
 * with the scopes granted. No refresh token: the client exchanges a new ID-JAG when this token expires.
 */
export function assertionGrant(assertions: IdentityAssertions, host: AssertionGrantHost): (ctx: GrantContext) => Promise<void> {
  return async (ctx) => {
    const { client, params, provider } = ctx.oidc;
    let accepted: AcceptedAssertion;
    try {
      accepted = await assertions.accept(String(params.assertion ?? ''), client.clientId, typeof params.scope === 'string' ? params.scope : undefined);
    } catch (error) {
      if (!(error instanceof AssertionRefusal)) throw error;
      if (error.error === 'invalid_scope') throw new host.errors.InvalidScope(error.message);
      throw Object.assign(new host.errors.InvalidGrant(), { error_description: error.message });
    }
    const jkt = await host.dpopKey(ctx as unknown as { get(header: string): string });
    await host.saveAssertedAccount(accepted);
    const scope = accepted.scopes.join(' ');
    const grant = new provider.Grant({ accountId: accepted.subject, clientId: client.clientId });
    grant.addResourceScope(host.resource, scope);
    const grantId = await grant.save();
    const token = new provider.AccessToken(host.toProvider({ accountId: accepted.subject, client, grantId, gty: JWT_BEARER, scope }));
    // RFC 9449 §5: a request with a proof gets a token bound to its key (cnf.jkt, token_type DPoP).
    if (jkt) token.setThumbprint('jkt', jkt);
    token.resourceServer = new provider.ResourceServer(host.resource, host.toProvider(host.resourceServer()));
    ctx.oidc.entity('AccessToken', token);
    const value = await token.save();
    ctx.body = host.toProvider({ access_token: value, expires_in: token.expiration, token_type: token.tokenType, ...(token.scope ? { scope: token.scope } : {}) });
  };
}

/** Fails the bootstrap for `identityAssertion` options that could not be served (`scopes`: the server's). */
export function checkIdentityAssertion(options: IdentityAssertionOptions | undefined, scopes: readonly string[]): void {
  if (options === undefined) return;
  const at = 'auth.server.identityAssertion';
  if (!Array.isArray(options.issuers) || options.issuers.length === 0) fail(`${at}.issuers is empty.`, "name the enterprise identity provider, e.g. issuers: [{ issuer: 'https://acme.okta.com' }].");
  if (!Array.isArray(options.clients) || options.clients.length === 0) fail(`${at}.clients is empty.`, "name the clients that present ID-JAGs, e.g. clients: [{ clientId: 'acme-agent', clientSecret }].");
  const ids = checkClientCredentials(options.clients, `${at}.clients`, 'acme-agent');
  options.issuers.forEach((issuer, i) => {
    if (typeof issuer.issuer !== 'string' || !/^https?:\/\//.test(issuer.issuer)) fail(`${at}.issuers[${i}].issuer must be the IdP's issuer URL, got ${JSON.stringify(issuer.issuer)}.`, "give it as the IdP's metadata names it, e.g. 'https://acme.okta.com'.");
    const unknown = (issuer.clients ?? []).filter((id: string) => !ids.has(id));
    if (unknown.length > 0) fail(`${at}.issuers[${i}].clients names ${unknown.join(', ')}, not among ${at}.clients.`, 'name clients of identityAssertion.clients.');
    const foreign = (issuer.scopes ?? []).filter((scope: string) => !scopes.includes(scope));
    if (foreign.length > 0) fail(`${at}.issuers[${i}].scopes names ${foreign.join(', ')}, not among the server's scopes (${scopes.join(', ') || 'none'}).`, 'give scopes among auth.server.scopes (or auth.scopesSupported).');
  });
}

function identityOf(subject: string, claims: Record<string, unknown>): UpstreamIdentity {
  const text = (key: string) => (typeof claims[key] === 'string' ? (claims[key] as string) : undefined);
  const groups = Array.isArray(claims.groups) ? claims.groups.filter((g): g is string => typeof g === 'string') : undefined;
  return {
    subject,
    ...(text('email') !== undefined ? { email: text('email') } : {}),
    ...(text('name') !== undefined ? { name: text('name') } : {}),
    ...(text('preferred_username') !== undefined ? { username: text('preferred_username') } : {}),
    ...(groups !== undefined ? { groups } : {}),
  };
}

/** jose's refusal, in the client's terms (never a key or a stack). */
function reasonOf(error: unknown): string {
  const { code, claim } = (error ?? {}) as { code?: string; claim?: string };
  if (code === 'ERR_JWT_EXPIRED') return claim === 'iat' ? 'the assertion is too old' : 'the assertion has expired';
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' || code === 'ERR_JWKS_NO_MATCHING_KEY') return "the assertion's signature is invalid";
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return claim === 'aud' ? 'the assertion is not for this authorization server (aud)' : claim === 'iat' ? 'the assertion is too old' : `the assertion's ${claim ?? 'claims'} claim is invalid`;
  if (code === 'ERR_JWKS_TIMEOUT') return "the identity provider's keys could not be fetched; try again later";
  return 'the assertion is invalid';
}
