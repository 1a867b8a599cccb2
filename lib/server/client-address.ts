import { createHash } from 'node:crypto';

/**
 * Who a client is, for every per-client bound (HTTP sessions, bodies in flight, unread answers, listen streams,
 * tasks): written without node:net so that the fetch handler runs on Workers too.
 */

/** The IPv6 prefix length a client's address is grouped by, unless `ipv6Prefix` says otherwise. */
export const DEFAULT_IPV6_PREFIX = 64;

/** Longest key kept as it is: a longer one (derived from a header a client sent) is kept as its digest. */
const LONGEST_KEY = 128;

/**
 * The key per-client bounds count `key` by: an IPv4 address as it is (an IPv4-mapped IPv6 address,
 * `::ffff:1.2.3.4`, as its IPv4 address: a dual-stack socket names IPv4 peers so); an IPv6 address as its
 * network of `ipv6Prefix` bits, `2001:db8:0:0:0:0:0:0/64` (a host is given a /64 and may use any address in it,
 * so one address per client would let it hold the bounds of billions); anything else (what `clientKey` made) as
 * it is, or as its digest when longer than 128 characters.
 */
export function clientKeyOf(key: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  const v4 = ipv4Of(key);
  if (v4 !== undefined) return v4;
  const groups = ipv6Groups(key);
  if (groups) {
    const mapped = mappedIpv4(groups);
    if (mapped !== undefined) return mapped;
    return `${maskGroups(groups, ipv6Prefix).map((group) => group.toString(16)).join(':')}/${ipv6Prefix}`;
  }
  return key.length > LONGEST_KEY ? createHash('sha256').update(key).digest('base64url') : key;
}

/** Whether `address` is a loopback address: 127.0.0.0/8, `::1`, or 127/8 mapped into IPv6. */
export function isLoopbackAddress(address: string): boolean {
  const v4 = ipv4Of(address) ?? mappedOf(address);
  if (v4 !== undefined) return v4.startsWith('127.');
  const groups = ipv6Groups(address);
  return groups !== undefined && groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1;
}

/** Whether `prefix` is a usable IPv6 prefix length (an integer from 0 to 128). */
export function isIpv6Prefix(prefix: unknown): prefix is number {
  return typeof prefix === 'number' && Number.isInteger(prefix) && prefix >= 0 && prefix <= 128;
}

function mappedOf(address: string): string | undefined {
  const groups = ipv6Groups(address);
  return groups && mappedIpv4(groups);
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** A dotted-quad IPv4 address in its canonical form, or undefined. */
function ipv4Of(text: string): string | undefined {
  const parts = IPV4.exec(text);
  if (!parts) return undefined;
  const octets = parts.slice(1).map(Number);
  return octets.every((octet) => octet <= 255) ? octets.join('.') : undefined;
}

/** `::ffff:a.b.c.d` (RFC 4291 §2.5.5.2) as `a.b.c.d`. */
function mappedIpv4(groups: readonly number[]): string | undefined {
  if (!groups.slice(0, 5).every((group) => group === 0) || groups[5] !== 0xffff) return undefined;
  return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
}

const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/**
 * The eight 16-bit groups of an IPv6 address (RFC 4291 §2.2: `::` once, an IPv4 tail; brackets and a zone
 * `%eth0` are dropped), or undefined when `text` is not one.
 */
function ipv6Groups(text: string): number[] | undefined {
  let address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  if (!address.includes(':') || address.length > 45) return undefined;
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    const pieces = half.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = ipv4Of(piece);
        if (v4 === undefined) return undefined;
        const [a, b, c, d] = v4.split('.').map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else if (HEX_GROUP.test(piece)) {
        out.push(parseInt(piece, 16));
      } else {
        return undefined;
      }
    }
    return out;
  };
  // An IPv4 tail ends the address: never before `::`.
  if (halves.length === 2 && halves[0].includes('.')) return undefined;
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  // An IPv4 tail counts as two groups; `::` stands for at least one group of zeros.
  if (head.length + tail.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** The groups with the bits past `prefix` cleared. */
function maskGroups(groups: readonly number[], prefix: number): number[] {
  return groups.map((group, i) => {
    const kept = Math.max(0, Math.min(16, prefix - i * 16));
    return kept === 0 ? 0 : group & ((0xffff << (16 - kept)) & 0xffff);
  });
}
