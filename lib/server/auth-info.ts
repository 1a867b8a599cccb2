import type { AuthInfo } from '@modelcontextprotocol/server';
import { authFromClaims } from '../context';
import type { McpAuth } from '../interfaces';

/** Where the verified identity rides inside the SDK's AuthInfo (`ctx.http.authInfo`). */
const MCP_AUTH = 'mcp-reflect:auth';

/** The SDK's AuthInfo for a verified identity (what the SDK's transports carry to the handlers). */
export function toAuthInfo(auth: McpAuth, resource: URL, resourceMetadataUrl: string): AuthInfo {
  return { ...authInfoOf(auth), resource, resourceMetadataUrl };
}

/** The SDK's AuthInfo for an identity a host verified itself (a Nest HTTP guard, say): carried as it is. */
export function authInfoOf(auth: McpAuth): AuthInfo {
  return {
    token: auth.token,
    clientId: auth.clientId,
    scopes: [...auth.scopes],
    ...(auth.expiresAt !== undefined ? { expiresAt: auth.expiresAt } : {}),
    extra: { [MCP_AUTH]: auth },
  };
}

// An AuthInfo set by other middleware (the SDK's requireBearerAuth in Express, say) is read once.
const CONVERTED = new WeakMap<AuthInfo, McpAuth>();

/** The identity of a request: ours, or one built from an AuthInfo that other middleware verified. */
export function fromAuthInfo(info: AuthInfo): McpAuth {
  const ours = info.extra?.[MCP_AUTH] as McpAuth | undefined;
  if (ours) return ours;
  let auth = CONVERTED.get(info);
  if (!auth) {
    // The subject: `extra.sub` (as JWT verifiers put it), else a `subject` field some middleware sets.
    const extra = info.extra ?? {};
    const subject = extra.sub ?? extra.subject ?? (info as { subject?: unknown }).subject;
    const claims = { ...extra, ...(typeof subject === 'string' ? { sub: subject } : {}), client_id: info.clientId, scope: info.scopes.join(' '), ...(info.expiresAt !== undefined ? { exp: info.expiresAt } : {}) };
    auth = authFromClaims(info.token, claims);
    CONVERTED.set(info, auth);
  }
  return auth;
}
