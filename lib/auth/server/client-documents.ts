import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { ClientIdMetadataDocumentOptions } from '../../interfaces';

/** Addresses a client id document is never fetched from (unless allowed): loopback, private, link-local, CGNAT, unspecified, ULA. */
function specialUse(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16], ['192.0.0.0', 24]] as const) {
    list.addSubnet(net, prefix, 'ipv4');
  }
  for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['::ffff:0:0', 96]] as const) list.addSubnet(net, prefix, 'ipv6');
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
 * the https client id (2.5 s, 5 KiB at most, cached by its Cache-Control), refuses shared-secret documents,
 * and cuts a connection to a special-use address; before that, the host is resolved here, so a document on
 * loopback, private or link-local addresses is refused without a connection (unless allowPrivateNetworks).
 */
export function cimdFeature(options: ClientIdMetadataDocumentOptions = {}): Record<string, unknown> {
  const blocked = specialUse();
  const allow = options.allow;
  return {
    enabled: options.enabled ?? true,
    ack: 'draft-02',
    allowFetch: async (_ctx: unknown, clientId: string) => {
      if (allow !== undefined && !(typeof allow === 'function' ? allow(clientId) : allow.includes(clientId))) return false;
      return options.allowPrivateNetworks === true || isPublicHost(new URL(clientId).hostname, blocked);
    },
    cacheDuration: { min: 60, max: 86_400 },
  };
}
