import type { AuthInfo } from '@modelcontextprotocol/server';
import { missingScopes } from '../context';
import { Authenticator, MissingTokenError } from './authenticator';
import { AuthUnavailableError, InvalidTokenError } from '../errors';
import type { AuthOptions, McpAuth } from '../interfaces';
import type { ServerLogger } from '../interfaces';
import type { ReadBody } from '../server/message-reading';
import type { ProtocolApplication } from '../server/protocol-application';
import { ScopeNeeds } from './scope-needs';
import { boundKey, DpopBusyError, DpopProofError, DpopVerifier } from './dpop';
import { toAuthInfo } from '../server/auth-info';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** What an admitted request carries on: its verified identity, as ours and as the SDK's transports carry it. */
export interface Admitted {
  readonly auth: McpAuth;
  readonly authInfo: AuthInfo;
}

/**
 * The OAuth 2.1 resource server in front of an MCP endpoint (MCP spec 2025-11-25 and 2026-07-28,
 * "Authorization"): publishes the protected resource metadata (RFC 9728), admits requests with a valid bearer
 * token for this resource (RFC 6750, RFC 8707 audience), or with `auth.dpop` a DPoP-bound one with its proof
 * (RFC 9449, ./dpop.ts), answers 401 with a `WWW-Authenticate` challenge otherwise, and 403
 * `insufficient_scope` when the token lacks the scopes the request needs (step-up).
 */
/**
 * Where a resource's protected resource metadata is served, at its origin: RFC 9728 §3.1's well-known path
 * before the resource's path, then the bare form for clients that try it.
 */
export function metadataPathsOf(resource: string): readonly [string, string] {
  const { pathname } = new URL(resource);
  const path = pathname === '/' ? '' : pathname.replace(/\/$/, '');
  return [`${WELL_KNOWN}${path}`, WELL_KNOWN];
}

export class AuthGate {
  private readonly authenticator: Authenticator;
  private readonly metadataUrl: string;
  private readonly metadataPaths: ReadonlySet<string>;
  private readonly metadataBody: string;
  private readonly stepUp: boolean;
  /** The `scope` of a 401 challenge: what any request needs, else what the server understands. */
  private readonly challengeScopes: readonly string[];
  /** The resource as a URL, made once (every admitted request carries it). */
  private readonly resourceUrl: URL;
  /** The `@Scopes()` of the components a request names (step-up). */
  private readonly scopes: ScopeNeeds;
  /** With `auth.dpop`: DPoP-bound tokens are accepted, with their proofs (RFC 9449). */
  private readonly dpop?: DpopVerifier;

  constructor(
    options: AuthOptions,
    resource: string,
    app: ProtocolApplication,
    private readonly logger: ServerLogger,
  ) {
    this.authenticator = new Authenticator(options, resource);
    if (options.dpop) this.dpop = new DpopVerifier(options.dpop === true ? {} : options.dpop, resource, options.clockToleranceSec ?? 30);
    this.scopes = new ScopeNeeds(app);
    const url = new URL(resource);
    this.resourceUrl = url;
    const [suffixed] = metadataPathsOf(resource);
    this.metadataUrl = `${url.origin}${suffixed}`;
    this.metadataPaths = new Set(metadataPathsOf(resource));
    this.metadataBody = JSON.stringify({
      resource,
      authorization_servers: this.authenticator.issuers,
      bearer_methods_supported: ['header'],
      // RFC 9728 §2 / RFC 9449 §5.1.
      ...(this.dpop ? { dpop_signing_alg_values_supported: this.dpop.algorithms, ...(this.dpop.required ? { dpop_bound_access_tokens_required: true } : {}) } : {}),
      ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      ...(options.resourceDocumentation ? { resource_documentation: options.resourceDocumentation } : {}),
      ...(options.resourceName ? { resource_name: options.resourceName } : {}),
    });
    this.stepUp = (options.insufficientScope ?? 'challenge') === 'challenge';
    this.challengeScopes = this.authenticator.requiredScopes.length > 0 ? this.authenticator.requiredScopes : (options.scopesSupported ?? []);
  }

  /** The protected resource metadata document's URL (what 401 challenges point to). */
  get resourceMetadataUrl(): string {
    return this.metadataUrl;
  }

  /** Where the metadata document is served: the path-suffixed form (RFC 9728 §3.1) and the bare one. */
  get paths(): readonly string[] {
    return [...this.metadataPaths];
  }

  /** The metadata document, when `request` asks for it; undefined for any other request. */
  metadata(request: Request): Response | undefined {
    if (request.method === 'POST' || request.method === 'DELETE') return undefined; // calls: no URL to parse
    if (!this.metadataPaths.has(new URL(request.url).pathname)) return undefined;
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': '*' };
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { ...cors, allow: 'GET, OPTIONS' } });
    return new Response(request.method === 'HEAD' ? null : this.metadataBody, {
      status: 200,
      headers: { ...cors, 'content-type': 'application/json', 'cache-control': 'max-age=3600' },
    });
  }

  /** The request's verified identity, from its headers alone (no body is read before it), or the answer that refuses it. */
  async authenticate(request: Request): Promise<Admitted | Response> {
    let auth: McpAuth;
    let scheme: Scheme = this.dpop?.required ? 'dpop' : 'bearer';
    try {
      const presented = this.authenticator.presented(request.headers.get('authorization'));
      scheme = presented.scheme;
      if (presented.scheme === 'dpop') {
        // The proof first (signature, method, URL, age, nonce), then the token, then that they belong together.
        const proof = await this.dpop!.proofOf(request);
        auth = await this.authenticator.verifyToken(presented.token);
        await this.dpop!.bind(proof, presented.token, auth);
      } else {
        if (this.dpop?.required) throw new InvalidTokenError('This server accepts DPoP-bound access tokens only: present the token as Authorization: DPoP <token> with a DPoP proof (RFC 9449).');
        auth = await this.authenticator.verifyToken(presented.token);
        // RFC 9449 §7.2: a bound token is never accepted as a bearer token (whoever stole it has no key).
        if (this.dpop && boundKey(auth.claims) !== undefined) throw new InvalidTokenError('The access token is bound to a DPoP key: present it as Authorization: DPoP <token> with a DPoP proof (RFC 9449).');
      }
    } catch (error) {
      return this.refusal(error, scheme);
    }
    const required = this.authenticator.requiredScopes;
    if (missingScopes(auth, required).length > 0) return this.insufficient(auth, required, scheme);
    return { auth, authInfo: toAuthInfo(auth, this.resourceUrl, this.metadataUrl) };
  }

  /** Whether the gate needs a call's body: step-up is on and some component needs scopes. */
  get readsBodies(): boolean {
    return this.stepUp && this.scopes.scoped();
  }

  /** Step-up: the scopes of the components a call names are known before it runs (403 when the token lacks them). */
  stepUpFor(admitted: Admitted, body: ReadBody): Response | undefined {
    if (!this.readsBodies) return undefined;
    const needed = [...new Set(body.messages.flatMap((message) => this.scopes.scopesFor(message) ?? []))];
    if (missingScopes(admitted.auth, needed).length === 0) return undefined;
    return this.insufficient(admitted.auth, [...this.authenticator.requiredScopes, ...needed], boundKey(admitted.auth.claims) === undefined ? 'bearer' : 'dpop');
  }

  /** 401 with a challenge (503 when tokens cannot be checked right now: the client must retry, not re-authenticate). */
  private async refusal(error: unknown, scheme: Scheme): Promise<Response> {
    if (error instanceof AuthUnavailableError) {
      this.logger.warn(`HTTP auth: cannot verify tokens: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`);
      return oauthError(503, 'temporarily_unavailable', 'Authorization is temporarily unavailable: retry shortly.', { 'retry-after': '5' });
    }
    if (error instanceof DpopBusyError) return oauthError(error.status, error.status === 429 ? 'too_many_requests' : 'temporarily_unavailable', error.message, { 'retry-after': '5' });
    const missing = error instanceof MissingTokenError;
    // A verifier's own failure says nothing to the client beyond "invalid" (its message may hold internals).
    let description = error instanceof InvalidTokenError ? error.message : 'The access token is invalid.';
    if (missing && this.dpop?.required) description = 'An access token is required: send it as Authorization: DPoP <token> with a DPoP proof (RFC 9449).';
    const code = error instanceof DpopProofError ? error.error : 'invalid_token';
    const challenge = this.challenge(scheme, missing ? undefined : code, missing ? undefined : description, this.challengeScopes);
    // RFC 9449 §9: the nonce to use, with the challenge that asks for it (and on any refusal, once nonces are on).
    const nonce = error instanceof DpopProofError && error.nonce !== undefined ? error.nonce : await this.dpop?.nonce();
    return oauthError(401, code, description, { 'www-authenticate': challenge, ...(nonce !== undefined ? { 'dpop-nonce': nonce } : {}) });
  }

  /** 403 insufficient_scope, naming the complete scope set to ask for: what the token has and what is missing. */
  private insufficient(auth: McpAuth, needed: readonly string[], scheme: Scheme): Response {
    const scopes = [...new Set([...auth.scopes, ...needed])];
    const lacking = missingScopes(auth, needed);
    const description = `This request needs the scope${lacking.length > 1 ? 's' : ''} ${lacking.join(' ')}.`;
    return oauthError(403, 'insufficient_scope', description, { 'www-authenticate': this.challenge(scheme, 'insufficient_scope', description, scopes) });
  }

  /**
   * The challenges of a refusal: `Bearer` (RFC 6750 §3, RFC 9728 §5.1), and with `auth.dpop` `DPoP` with its
   * `algs` (RFC 9449 §7.1), `DPoP` alone when it is required; the error goes with the scheme the request used,
   * whose challenge comes first.
   */
  private challenge(used: Scheme, error: string | undefined, description: string | undefined, scopes: readonly string[]): string {
    const params = [`resource_metadata="${this.metadataUrl}"`];
    if (scopes.length > 0) params.push(`scope="${scopes.join(' ')}"`);
    const failed = [...(error ? [`error="${error}"`] : []), ...(description ? [`error_description="${quotable(description)}"`] : [])];
    const bearer = `Bearer ${[...params, ...(used === 'bearer' ? failed : [])].join(', ')}`;
    if (!this.dpop) return bearer;
    const dpop = `DPoP ${[`algs="${this.dpop.algorithms.join(' ')}"`, ...params, ...(used === 'dpop' || this.dpop.required ? failed : [])].join(', ')}`;
    if (this.dpop.required) return dpop;
    return used === 'dpop' ? `${dpop}, ${bearer}` : `${bearer}, ${dpop}`;
  }
}

/** The scheme a request presented its token with. */
type Scheme = 'bearer' | 'dpop';

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** RFC 6750 error_description characters only (%x20-21 / %x23-5B / %x5D-7E). */
function quotable(text: string): string {
  return text.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, ' ');
}
