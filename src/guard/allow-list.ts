/**
 * The allow-list: host names (as written in the URL), IP addresses and CIDRs the guard lets
 * through. Parsed once per guard; an entry that is none of the three is a programming error.
 */
import { classifyParsed, parseIp, reachesMetadata, type BlockReason } from './address.js';
import type { Cidr, IpAddress } from './ipaddr.js';

export interface AllowList {
  /** Whether the URL's host name, as written (any case, trailing dot or not), is listed. */
  hasName(hostname: string): boolean;
  /** Whether an address or CIDR entry covers the address. */
  covers(address: IpAddress): boolean;
  readonly empty: boolean;
}

/** Lower case, no trailing dot, no brackets: how names are compared. */
export function comparableName(hostname: string): string {
  const lower = hostname.toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return bare.endsWith('.') ? bare.slice(0, -1) : bare;
}

function parseCidr(entry: string): Cidr | undefined {
  const slash = entry.indexOf('/');
  const bits = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return undefined;
  const address = parseIp(entry.slice(0, slash));
  if (address === undefined) return undefined;
  const prefix = Number(bits);
  return prefix > (address.kind() === 'ipv4' ? 32 : 128) ? undefined : [address, prefix];
}

// A host name as a URL would carry it: the URL parser lower-cases it and maps IDN to punycode.
function parseName(entry: string): string | undefined {
  if (!/^[^\s/?#@:[\]\\%]+$/u.test(entry)) return undefined;
  try {
    const url = new URL(`http://${entry}/`);
    const name = comparableName(url.hostname);
    return name === '' || parseIp(name) !== undefined ? undefined : name;
  } catch {
    return undefined;
  }
}

type Entry = { kind: 'name'; name: string } | { kind: 'range'; range: Cidr; exact: boolean };

function parseEntry(entry: string): Entry {
  const range = entry.includes('/') ? parseCidr(entry) : undefined;
  if (range)
    return { kind: 'range', range, exact: range[1] === (range[0].kind() === 'ipv4' ? 32 : 128) };
  const address = entry.includes('/') ? undefined : parseIp(entry);
  if (address) {
    return { kind: 'range', range: [address, address.kind() === 'ipv4' ? 32 : 128], exact: true };
  }
  const name = entry.includes('/') ? undefined : parseName(entry);
  if (name !== undefined) return { kind: 'name', name };
  throw new TypeError(
    `guard: allow entry ${JSON.stringify(entry)} is not a host name, an IP address or a CIDR ` +
      `(e.g. 'internal.example', '10.0.0.5', '10.0.0.0/8', 'fd00::/8')`,
  );
}

/**
 * Parses an allow-list. Throws a `TypeError` naming the first entry that is not a host name, an
 * IP address (IPv6 with or without brackets) or a CIDR.
 */
export function parseAllowList(entries: readonly string[] = []): AllowList {
  const names = new Set<string>();
  const ranges: Array<{ range: Cidr; exact: boolean }> = [];
  for (const raw of entries) {
    const entry = parseEntry(raw);
    if (entry.kind === 'name') names.add(entry.name);
    else ranges.push(entry);
  }
  return {
    empty: names.size === 0 && ranges.length === 0,
    hasName: (hostname) => names.has(comparableName(hostname)),
    covers(address) {
      // A metadata endpoint is exempt only when named exactly: '169.254.0.0/16', '0.0.0.0/0' or
      // '::/0' (which covers ::ffff:169.254.169.254) written for other reasons must not open it.
      const needsExact = reachesMetadata(address);
      return ranges.some(
        ({ range, exact }) =>
          (exact || !needsExact) && address.kind() === range[0].kind() && address.match(range),
      );
    },
  };
}

/** `checkAddress` against a parsed list (the guard's own path). */
export function checkParsedAddress(address: string, allow: AllowList): BlockReason | undefined {
  const parsed = parseIp(address);
  if (parsed === undefined) return 'invalid';
  const reason = classifyParsed(parsed);
  return reason === undefined || allow.covers(parsed) ? undefined : reason;
}

/**
 * Why the guard refuses `address` given an allow-list, or `undefined` when it may be connected
 * to. Only the IP and CIDR entries of `allow` count here (host names are matched against URLs).
 * A CIDR never exempts a cloud metadata address: only that exact address does. IPv4-mapped
 * IPv6 is matched as written: `127.0.0.1` does not exempt `::ffff:127.0.0.1`.
 *
 * @example
 * checkAddress('10.0.0.5'); // 'private'
 * checkAddress('10.0.0.5', ['10.0.0.0/8']); // undefined
 */
export function checkAddress(address: string, allow?: readonly string[]): BlockReason | undefined {
  return checkParsedAddress(address, parseAllowList(allow));
}
