import type { AuthInfo } from '@modelcontextprotocol/server';
import { missingScopes } from '../context';
import { Authenticator, MissingTokenError } from './authenticator';
import { AuthUnavailableError, InvalidTokenError } from '../errors';
import type { AuthOptions, McpAuth } from '../interfaces';
import type { ServerLogger } from '../interfaces';
import type { ReadBody } from '../server/message-reading';
import type { ProtocolApplication } from '../server/protocol-application';
import { ScopeNeeds } from './scope-needs';
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
 * token for this resource (RFC 6750, RFC 8707 audience), answers 401 with a `WWW-Authenticate` challenge
 * otherwise, and 403 `insufficient_scope` when the token lacks the scopes the request needs (step-up).
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

  constructor(
    options: AuthOptions,
    resource: string,
    app: ProtocolApplication,
    private readonly logger: ServerLogger,
  ) {
    this.authenticator = new Authenticator(options, resource);
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
    try {
      auth = await this.authenticator.authenticate(request.headers.get('authorization'));
    } catch (error) {
      return this.refusal(error);
    }
    const required = this.authenticator.requiredScopes;
    if (missingScopes(auth, required).length > 0) return this.insufficient(auth, required);
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
    return this.insufficient(admitted.auth, [...this.authenticator.requiredScopes, ...needed]);
  }

  /** 401 with a challenge (503 when tokens cannot be checked right now: the client must retry, not re-authenticate). */
  private refusal(error: unknown): Response {
    if (error instanceof AuthUnavailableError) {
      this.logger.warn(`HTTP auth: cannot verify tokens: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`);
      return oauthError(503, 'temporarily_unavailable', 'Authorization is temporarily unavailable: retry shortly.', { 'retry-after': '5' });
    }
    const missing = error instanceof MissingTokenError;
    // A verifier's own failure says nothing to the client beyond "invalid" (its message may hold internals).
    const description = error instanceof InvalidTokenError ? error.message : 'The access token is invalid.';
    const challenge = this.challenge(missing ? undefined : 'invalid_token', missing ? undefined : description, this.challengeScopes);
    return oauthError(401, 'invalid_token', description, { 'www-authenticate': challenge });
  }

  /** 403 insufficient_scope, naming the complete scope set to ask for: what the token has and what is missing. */
  private insufficient(auth: McpAuth, needed: readonly string[]): Response {
    const scopes = [...new Set([...auth.scopes, ...needed])];
    const lacking = missingScopes(auth, needed);
    const description = `This request needs the scope${lacking.length > 1 ? 's' : ''} ${lacking.join(' ')}.`;
    return oauthError(403, 'insufficient_scope', description, { 'www-authenticate': this.challenge('insufficient_scope', description, scopes) });
  }

  /** `Bearer` challenge parameters (RFC 6750 §3, RFC 9728 §5.1). */
  private challenge(error: string | undefined, description: string | undefined, scopes: readonly string[]): string {
    const params = [`resource_metadata="${this.metadataUrl}"`];
    if (scopes.length > 0) params.push(`scope="${scopes.join(' ')}"`);
    if (error) params.push(`error="${error}"`);
    if (description) params.push(`error_description="${quotable(description)}"`);
    return `Bearer ${params.join(', ')}`;
  }
}

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
