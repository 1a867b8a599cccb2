import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { LRUCache } from 'lru-cache';
import type { ClientIdMetadataDocumentOptions } from '../../interfaces';

/**
 * Addresses a client id document is never fetched from (unless allowed), after the IANA special-purpose
 * registries: unspecified, loopback, private, shared (CGNAT), link-local, benchmarking, documentation, multicast
 * and reserved IPv4 (and the same as IPv4-mapped IPv6, which BlockList matches against the IPv4 rules); for IPv6
 * also IPv4-compatible addresses (`::127.0.0.1`), NAT64 (`64:ff9b::/96`, which reaches any IPv4 address), 6to4 and
 * Teredo (which embed one), site-local (`fec0::/10`), ULA, link-local, multicast.
 */
function specialUse(): BlockList {
  const list = new BlockList();
  const ipv4 = [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const;
  for (const [net, prefix] of ipv4) list.addSubnet(net, prefix, 'ipv4');
  const ipv6 = [['::', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8]] as const;
  for (const [net, prefix] of ipv6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

/** Whether `host` (a name or an address) resolves only to public addresses. */
export async function isPublicHost(host: string, blocked = specialUse()): Promise<boolean> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true }).catch(() => []);
  if (addresses.length === 0) return false;
  return addresses.every(({ address, family }) => !blocked.check(address, family === 6 ? 'ipv6' : 'ipv4'));
}

/**
 * oidc-provider's Client ID Metadata Document feature (draft-ietf-oauth-client-id-metadata-document): it fetches
 * the https client id (2.5 s an attempt, two attempts; 5 KiB at most, cached by its Cache-Control), refuses shared-secret documents,
 * and cuts a connection to a special-use address; before that, the host is resolved here, so a document on
 * loopback, private or link-local addresses is refused without a connection (unless allowPrivateNetworks).
 */
export function clientDocuments(options: ClientIdMetadataDocumentOptions = {}): { feature: Record<string, unknown>; fetch: typeof fetch } {
  const blocked = specialUse();
  const allow = options.allow;
  // Documents allowed on private networks, by URL: only their fetch goes without oidc-provider's connect-time guard.
  // A client chooses the URL: 1,000 of them and 1 MiB of their text at most (one forgotten before its fetch is checked again: refused).
  const privateDocuments = new LRUCache<string, true>({ max: 1_000, maxSize: 1024 * 1024, sizeCalculation: (_value, href) => href.length * 2 + 64 });
  const feature = {
    enabled: options.enabled ?? true,
    ack: 'draft-02',
    allowFetch: async (_ctx: unknown, clientId: string) => {
      if (allow !== undefined && !(typeof allow === 'function' ? allow(clientId) : allow.includes(clientId))) return false;
      if (await isPublicHost(new URL(clientId).hostname, blocked)) return true;
      if (options.allowPrivateNetworks !== true) return false;
      privateDocuments.set(new URL(clientId).href, true);
      return true;
    },
    cacheDuration: { min: 60, max: 86_400 },
  };
  const base = options.fetch ?? ((url: string | URL | Request, init?: RequestInit) => fetch(url, init));
  // Every fetch of the provider (a document, a client's `jwks_uri` or `sector_identifier_uri`) goes to public
  // addresses only, checked here before any connection: oidc-provider's own connect-time guard is not there when
  // it cannot find undici's global dispatcher. `allowPrivateNetworks` is about metadata documents alone.
  const guarded = (async (url: string | URL | Request, init?: RequestInit & { dispatcher?: unknown }) => {
    const href = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
    if (privateDocuments.get(href)) {
      if (init) delete init.dispatcher;
    } else if (!(await isPublicHost(new URL(href).hostname, blocked))) {
      throw new TypeError(`fetch of ${new URL(href).origin} refused: it is not a public address`);
    }
    return base(url, init);
  }) as typeof fetch;
  return { feature, fetch: guarded };
}
