import { AuthUnavailableError } from '../errors';

/**
 * An authorization server's metadata: RFC 8414 (`/.well-known/oauth-authorization-server`, inserted before
 * the issuer's path), then OpenID Connect discovery. Its `issuer` must be the one asked for (RFC 8414 §3.3).
 */
export async function discoverMetadata(issuer: string, timeoutMs = 5_000): Promise<Record<string, unknown>> {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  const candidates = [
    ...new Set([
      `${url.origin}/.well-known/oauth-authorization-server${path}`,
      `${url.origin}/.well-known/openid-configuration${path}`,
      `${url.origin}${path}/.well-known/openid-configuration`,
    ]),
  ];
  const failures: string[] = [];
  for (const candidate of candidates) {
    try {
      const response = await fetch(candidate, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
      if (!response.ok) {
        failures.push(`${candidate}: ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as Record<string, unknown>;
      // Another issuer's document (an organisation-wide one, say) is not this issuer's: try the next place.
      if (metadata.issuer === issuer) return metadata;
      failures.push(`${candidate}: names the issuer ${String(metadata.issuer)}`);
    } catch (error) {
      failures.push(`${candidate}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new AuthUnavailableError(`no metadata found for the issuer ${issuer} (${failures.join('; ')})`);
}
