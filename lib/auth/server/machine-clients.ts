import { createHash, timingSafeEqual } from 'node:crypto';
import type { AssertionClient, MachineClient, MachineClientOptions } from '../../interfaces';
import { JWT_BEARER } from './identity-assertion';
import type { OidcProviderModule } from './oidc-provider.types';
import { checkClientCredentials, fail } from './server-options';

/** The grant machine clients use (RFC 6749 §4.4). */
const GRANT = 'client_credentials';
/** Declared so that oidc-provider asks `validator` about every client it builds (never set by anyone). */
const CHECKED = 'mcp_machine_client';

/** What oidc-provider is configured with for `auth.server.machineClients` (docs/auth.md#machine-clients). */
export interface MachineClientConfiguration {
  readonly enabled: boolean;
  /** The clients known up front, as oidc-provider's client metadata (the store adapter answers them). */
  readonly clients: ({ client_id: string; grant_types: string[]; scope?: string } & Record<string, unknown>)[];
  readonly extraClientMetadata: { properties: string[]; validator(ctx: unknown, key: string, value: unknown, metadata: Record<string, unknown>): void };
}

interface RegistrationContext {
  readonly oidc?: { readonly route?: string };
  readonly headers?: Record<string, string | string[] | undefined>;
}

/**
 * Machine clients: the clients `clients` names, and those registered with the initial access token. No other
 * client may hold the grant — a public client registered by anyone, or a Client ID Metadata Document, asking for
 * it is refused (invalid_client_metadata): a token no user consented to is the operator's to hand out.
 */
export function machineClients(options: MachineClientOptions | undefined, errors: OidcProviderModule['errors'], assertionClients: readonly AssertionClient[] = []): MachineClientConfiguration {
  const known = new Set((options?.clients ?? []).map((c) => c.clientId));
  const presenters = new Set(assertionClients.map((c) => c.clientId));
  const registration = options?.registration;
  const allowed = new Set(registration?.scopes ?? []);
  const expected = registration && digest(registration.initialAccessToken);
  const refuse = (why: string): never => {
    throw new errors.InvalidClientMetadata(why);
  };

  const validator = (ctx: unknown, _key: string, _value: unknown, metadata: Record<string, unknown>): void => {
    const grants = Array.isArray(metadata.grant_types) ? (metadata.grant_types as unknown[]) : [];
    const clientId = String(metadata.client_id ?? '');
    // ID-JAGs (./identity-assertion.ts) are presented by the clients the options name, and no other.
    if (grants.includes(JWT_BEARER) && !presenters.has(clientId)) refuse('the jwt-bearer grant (ID-JAG) is for the clients auth.server.identityAssertion names');
    if (!grants.includes(GRANT)) return;
    if (known.has(clientId)) return;
    if (URL.canParse(clientId)) refuse('a client described by a Client ID Metadata Document cannot use the client_credentials grant');
    const request = ctx as RegistrationContext | undefined;
    // A client read back from the store passed this check when it registered.
    if (request?.oidc?.route !== 'registration' && request?.oidc?.route !== 'client_update') return;
    if (!expected) return refuse('this server registers no machine clients (client_credentials): ask its operator for a client');
    const given = /^Bearer\s+(\S+)$/i.exec(String(request.headers?.authorization ?? ''))?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) refuse('registering a machine client (client_credentials) needs the initial access token its operator gave (Authorization: Bearer …)');
    if (metadata.token_endpoint_auth_method !== 'private_key_jwt') refuse('a registered machine client authenticates with private_key_jwt (give jwks or jwks_uri)');
    if (grants.some((grant) => grant !== GRANT)) refuse('a machine client uses the client_credentials grant only');
    const scopes = String(metadata.scope ?? '').split(' ').filter(Boolean);
    const extra = scopes.filter((scope) => !allowed.has(scope));
    if (extra.length > 0) refuse(`a registered machine client may ask for ${allowed.size > 0 ? [...allowed].join(' ') : 'no scope'}, not ${extra.join(' ')}`);
    // None named: those registration allows.
    if (scopes.length === 0) metadata.scope = allowedScope([...allowed]);
  };

  const machines = (options?.clients ?? []).map((client) => ({ ...credentials(client), grant_types: [GRANT], scope: allowedScope(client.scopes) }));
  // A client of identityAssertion presents ID-JAGs; one that is a machine client too keeps both grants.
  const clients: MachineClientConfiguration['clients'] = [...machines];
  for (const client of assertionClients) {
    const both = clients.find((c) => c.client_id === client.clientId);
    if (both) both.grant_types = [GRANT, JWT_BEARER];
    else clients.push({ ...credentials(client), grant_types: [JWT_BEARER] });
  }

  return { enabled: options !== undefined && (machines.length > 0 || registration !== undefined), clients, extraClientMetadata: { properties: [CHECKED], validator } };
}

/** A confidential client's metadata: it authenticates with its secret (client_secret_basic) or its keys (private_key_jwt). */
function credentials(client: Pick<MachineClient, 'clientId' | 'clientSecret' | 'jwks' | 'jwksUri' | 'name'>) {
  return {
    client_id: client.clientId,
    client_name: client.name ?? client.clientId,
    response_types: [] as string[],
    redirect_uris: [] as string[],
    ...(client.clientSecret !== undefined
      ? { client_secret: client.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
      : { token_endpoint_auth_method: 'private_key_jwt', ...(client.jwks ? { jwks: { keys: client.jwks.keys.map((k) => ({ ...k })) } } : { jwks_uri: client.jwksUri }) }),
  };
}

/** Fails the bootstrap for machine clients that could not be served as given (`scopes`: the server's). */
export function checkMachineClients(options: MachineClientOptions | undefined, scopes: readonly string[]): void {
  if (options === undefined) return;
  const offered = new Set(scopes);
  const foreign = (list: readonly string[]) => list.filter((scope) => !offered.has(scope));
  checkClientCredentials(options.clients ?? [], 'auth.server.machineClients.clients', 'ci-deploy');
  (options.clients ?? []).forEach((client, i) => {
    const at = `auth.server.machineClients.clients[${i}]`;
    const extra = foreign(client.scopes ?? []);
    if (!Array.isArray(client.scopes) || extra.length > 0) fail(`${at}.scopes ('${client.clientId}') ${extra.length > 0 ? `names ${extra.join(', ')}, not among the server's scopes (${scopes.join(', ') || 'none'})` : 'is missing'}.`, 'give the scopes it may be granted, among auth.server.scopes (or auth.scopesSupported).');
  });
  const registration = options.registration;
  if (registration === undefined) return;
  if (typeof registration.initialAccessToken !== 'string' || registration.initialAccessToken.length < 32) fail('auth.server.machineClients.registration.initialAccessToken must be at least 32 characters.', "generate one: node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\".");
  const extra = foreign(registration.scopes ?? []);
  if (extra.length > 0) fail(`auth.server.machineClients.registration.scopes names ${extra.join(', ')}, not among the server's scopes (${scopes.join(', ') || 'none'}).`, 'give scopes among auth.server.scopes (or auth.scopesSupported).');
}

/**
 * A client credentials request's `scope`, narrowed to what the machine client may have (RFC 6749 §3.3: the
 * server may issue fewer scopes than asked, and says which): an MCP client asks for the scopes the resource
 * challenges with, or every scope it supports (the MCP spec's scope selection), not for its own. None asked:
 * all it may have. When none of those asked may be had, the request is left as it is, to be refused (invalid_scope).
 * The client is who the request claims to be: a false claim fails authentication after this.
 */
export async function narrowMachineScope(form: URLSearchParams, authorization: string | undefined, allowedScopes: (clientId: string) => Promise<readonly string[] | undefined>): Promise<boolean> {
  if (form.get('grant_type') !== GRANT) return false;
  const clientId = claimedClient(form, authorization);
  const allowed = clientId === undefined ? undefined : await allowedScopes(clientId);
  if (allowed === undefined) return false;
  const asked = (form.get('scope') ?? '').split(' ').filter(Boolean);
  if (allowed.length === 0) {
    // It may have no scope: a token without one (oidc-provider would refuse any asked for).
    if (asked.length === 0) return false;
    form.delete('scope');
    return true;
  }
  const granted = asked.length === 0 ? [...allowed] : asked.filter((scope) => allowed.includes(scope));
  if (granted.length === 0 || granted.join(' ') === asked.join(' ')) return false;
  form.set('scope', granted.join(' '));
  return true;
}

/** The client a token request names: HTTP Basic's user, `client_id`, or its client assertion's subject. */
function claimedClient(form: URLSearchParams, authorization: string | undefined): string | undefined {
  const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (basic) {
    const user = Buffer.from(basic, 'base64').toString('utf8').split(':')[0];
    return user ? decodeURIComponent(user) : undefined;
  }
  const named = form.get('client_id');
  if (named) return named;
  const payload = form.get('client_assertion')?.split('.')[1];
  if (!payload) return undefined;
  try {
    const sub = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a token's claims are a machine client's own (client credentials: its subject is its client id, no grant). */
export function isMachineToken(claims: Readonly<Record<string, unknown>>): boolean {
  return claims.grant_id === undefined && typeof claims.client_id === 'string' && claims.sub === claims.client_id;
}

/**
 * A client's `scope` metadata: oidc-provider lets a client with none (or an empty one) ask for any scope, so a
 * machine client that may have none holds `openid` alone (never among a resource's scopes, never in its tokens).
 */
const NO_SCOPE = 'openid';
function allowedScope(scopes: readonly string[]): string {
  return scopes.length > 0 ? scopes.join(' ') : NO_SCOPE;
}

/** The scopes a machine client's `scope` metadata allows. */
export function machineScopesOf(scope: unknown): string[] {
  return String(scope ?? '').split(' ').filter((s) => s !== '' && s !== NO_SCOPE);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
