/**
 * Which IP addresses the guard refuses, and why. The ranges come from ipaddr.js (`range()`), with
 * a few additions it has no name for: the cloud metadata endpoints, IPv4-compatible IPv6, NAT64
 * and 6to4 prefixes that embed an IPv4 address, and IPv6 space outside global unicast.
 */
import { ipaddr, type Cidr, type IPv4, type IPv6 } from './ipaddr.js';

/** Why an address is refused. `invalid`: not an IP address at all. */
export type BlockReason =
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'carrierGradeNat'
  | 'uniqueLocal'
  | 'siteLocal'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'metadata'
  | 'ipv4Mapped'
  | 'ipv4Compatible'
  | 'ipv4Translated'
  | 'reserved'
  | 'invalid';

/** Cloud metadata endpoints: AWS/GCP/Azure/OCI, AWS over IPv6, Alibaba, Azure's WireServer. */
const METADATA = ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '168.63.129.16'];

const cidr = (text: string): Cidr => ipaddr.parseCIDR(text);
// Everything IPv6 outside 2000::/3 is unassigned or special; ipaddr.js calls much of it unicast.
const GLOBAL_UNICAST_V6 = cidr('2000::/3');
// ::/96, IPv4-compatible IPv6 (deprecated): ::7f00:1 is "127.0.0.1" to some stacks.
const IPV4_COMPATIBLE = cidr('::/96');
// NAT64's well-known prefix: the last 32 bits are the IPv4 address a translator connects to.
const NAT64_WELL_KNOWN = cidr('64:ff9b::/96');

const V4_REASONS: Record<string, BlockReason | undefined> = {
  unicast: undefined,
  // AS112 and AMT are globally reachable anycast services (IANA), not internal space.
  as112: undefined,
  amt: undefined,
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'linkLocal',
  loopback: 'loopback',
  carrierGradeNat: 'carrierGradeNat',
  private: 'private',
  reserved: 'reserved',
};

const V6_REASONS: Record<string, BlockReason | undefined> = {
  unicast: undefined,
  as112v6: undefined,
  amt: undefined,
  unspecified: 'unspecified',
  linkLocal: 'linkLocal',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'uniqueLocal',
  ipv4Mapped: 'ipv4Mapped',
  deprecatedSiteLocal: 'siteLocal',
  rfc6145: 'ipv4Translated',
};

/**
 * Parses an IP address, bracketed IPv6 and a `%zone` included. IPv6 is canonicalised through the
 * WHATWG URL parser first: ipaddr.js reads `::127.0.0.1` as `::ffff:127.0.0.1`, which it is not.
 * IPv4 takes the inet_aton spellings (`127.1`, `0x7f000001`, `0177.0.0.1`) as the URL parser does.
 */
export function parseIp(text: string): IPv4 | IPv6 | undefined {
  let value = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (value.includes(':')) {
    const zone = value.indexOf('%');
    if (zone >= 0) value = value.slice(0, zone);
    // Hex, colons and dots only: `]`, `/`, `?` or `#` would end the bracket inside the URL below,
    // and "2606:4700::1]/x" would parse as the public address before it.
    if (!/^[0-9A-Fa-f:.]+$/.test(value)) return undefined;
    try {
      const host = new URL(`http://[${value}]/`).hostname;
      return ipaddr.IPv6.parse(host.slice(1, -1));
    } catch {
      return undefined;
    }
  }
  try {
    return ipaddr.IPv4.parse(value);
  } catch {
    return undefined;
  }
}

function sameKind(address: IPv4 | IPv6, range: Cidr): boolean {
  return address.kind() === range[0].kind() && address.match(range);
}

const METADATA_ADDRESSES = METADATA.map((text) => parseIp(text)?.toNormalizedString());

/** Whether `address` is one of the cloud metadata endpoints. */
export function isMetadataAddress(address: IPv4 | IPv6): boolean {
  return METADATA_ADDRESSES.includes(address.toNormalizedString());
}

/**
 * The IPv4 address an IPv6 one carries inside it, by any of the schemes that reach it: mapped
 * (::ffff:a.b.c.d), compatible (::a.b.c.d), translated (::ffff:0:a.b.c.d), 6to4, NAT64.
 */
export function carriedV4(address: IPv6): IPv4 | undefined {
  const b = address.toByteArray();
  const zero = (from: number, to: number): boolean => b.slice(from, to).every((x) => x === 0);
  const tail = (): IPv4 => new ipaddr.IPv4(b.slice(12, 16));
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return tail();
  if (zero(0, 12) && !zero(12, 16)) return tail();
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return tail();
  return embeddedV4(address);
}

/** A metadata endpoint, spelled as itself or carried inside an IPv6 address. */
export function reachesMetadata(address: IPv4 | IPv6): boolean {
  if (isMetadataAddress(address)) return true;
  if (address.kind() !== 'ipv6') return false;
  const v4 = carriedV4(address as IPv6);
  return v4 !== undefined && isMetadataAddress(v4);
}

function classifyV4(address: IPv4): BlockReason | undefined {
  const range = address.range();
  return range in V4_REASONS ? V4_REASONS[range] : 'reserved';
}

/** The embedded IPv4 address of a 6to4 (2002:AABB:CCDD::/48) or NAT64 (64:ff9b::/96) address. */
function embeddedV4(address: IPv6): IPv4 | undefined {
  const bytes = address.toByteArray();
  if (address.range() === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  if (sameKind(address, NAT64_WELL_KNOWN)) return new ipaddr.IPv4(bytes.slice(12, 16));
  return undefined;
}

function classifyV6(address: IPv6): BlockReason | undefined {
  const range = address.range();
  if (range === 'unspecified' || range === 'loopback') return V6_REASONS[range];
  if (sameKind(address, IPV4_COMPATIBLE)) return 'ipv4Compatible';
  const v4 = embeddedV4(address);
  // A translator or relay would connect to the embedded address: judge that one.
  if (v4) return isMetadataAddress(v4) ? 'metadata' : classifyV4(v4);
  if (range in V6_REASONS) {
    const reason = V6_REASONS[range];
    if (reason !== undefined || sameKind(address, GLOBAL_UNICAST_V6)) return reason;
    return 'reserved';
  }
  // teredo, benchmarking, orchid, segment routing, the local-use NAT64 prefix, documentation, …
  return 'reserved';
}

/** Classifies a parsed address (see `classifyAddress`). */
export function classifyParsed(address: IPv4 | IPv6): BlockReason | undefined {
  if (isMetadataAddress(address)) return 'metadata';
  return address.kind() === 'ipv4' ? classifyV4(address as IPv4) : classifyV6(address as IPv6);
}

/**
 * Why the guard refuses `address`, or `undefined` when it is public. Ignores any allow-list (see
 * `checkAddress`). Takes the spellings a URL or a resolver may produce: dotted IPv4 and its
 * inet_aton forms (`127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`), IPv6 with or without
 * brackets and `%zone`. Anything that is not an IP address is `'invalid'` (refused, never public).
 *
 * @example
 * classifyAddress('10.1.2.3'); // 'private'
 * classifyAddress('::ffff:127.0.0.1'); // 'ipv4Mapped'
 * classifyAddress('93.184.215.14'); // undefined
 */
export function classifyAddress(address: string): BlockReason | undefined {
  const parsed = parseIp(address);
  return parsed === undefined ? 'invalid' : classifyParsed(parsed);
}
