/**
 * The checks the bridge adds before a link is read upstream, beyond the resolver's policy: the
 * length of the URI, the configured URI patterns, and the SSRF guard's static checks on a URI's
 * host. The bridge fetches nothing itself, and it does not have the upstream fetch a network URL
 * for it: it cannot check what the upstream's own resolver would connect to (a name resolved
 * twice may answer differently), so such a link is left as a line of text for the host to follow
 * through its own guard.
 */
import { blockedHost } from '../../guard/index.js';
import { schemeOf } from '../../host/policy.js';

/** Longest URI the bridge matches and reads for a link; a longer one is left as text. */
export const MAX_LINK_URI_CHARS = 8192;

/**
 * Schemes whose URIs name a network location the upstream would fetch (`file:` only with a host
 * other than `localhost`: a share on another machine).
 */
export const NETWORK_SCHEMES: ReadonlySet<string> = new Set([
  'http',
  'https',
  'ws',
  'wss',
  'ftp',
  'ftps',
  'sftp',
  'gopher',
  'smb',
  'file',
]);

/**
 * Schemes whose host a client connects to as an internet host: the network schemes above, the
 * other protocols curl speaks, and ssh. Other schemes are the upstream's own, where `note://5` is
 * a name, not an address.
 */
const INET_HOST_SCHEMES: ReadonlySet<string> = new Set([
  ...NETWORK_SCHEMES,
  'dict',
  'imap',
  'imaps',
  'ldap',
  'ldaps',
  'mqtt',
  'pop3',
  'pop3s',
  'rtmp',
  'rtsp',
  'scp',
  'smbs',
  'smtp',
  'smtps',
  'ssh',
  'telnet',
  'tftp',
]);

/**
 * A glob (`*` any run, `/` included; `?` one character) as a matcher. Matched without a regular
 * expression: at most (URI length x glob length) steps, whatever the number of stars.
 */
export function compileUriPattern(glob: string): (uri: string) => boolean {
  return (uri) => wildcardMatch(glob, uri);
}

function wildcardMatch(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  // The last star seen, and where in the text its run was assumed to end.
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    const c = glob[g];
    if (c === '*') {
      star = g++;
      resume = t;
    } else if (c !== undefined && (c === '?' || c === text[t])) {
      g++;
      t++;
    } else if (star >= 0) {
      // Let the last star take one more character; earlier stars never need to move.
      g = star + 1;
      t = ++resume;
    } else return false;
  }
  while (glob[g] === '*') g++;
  return g === glob.length;
}

function hostOf(uri: string): string | undefined {
  try {
    return new URL(uri).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The host of an internet-host URI as its client reads it. The URL parser leaves the host of a
 * non-special scheme as written (`gopher://127.1/` keeps `127.1`), but inet_aton and the clients
 * built on it read `127.1`, `2130706433`, `0x7f000001` and `0177.0.0.1` as 127.0.0.1: parsed as
 * an http: host, it is normalised as the parser does for special schemes. An opaque host holds
 * no `/`, `?`, `#`, `@` or `:`, so it cannot end the authority it is put in. As written if that
 * does not parse (not an address a client would read either).
 */
function clientHost(bare: string): string {
  try {
    return new URL(`http://${bare}/`).hostname;
  } catch {
    return bare;
  }
}

/**
 * Why the SSRF guard refuses the host of `uri` (loopback, private, metadata, their spellings),
 * or undefined: a URI without a host, or `file://localhost/`, has none to refuse.
 */
export function blockedLinkHost(uri: string): string | undefined {
  const host = hostOf(uri);
  if (host === undefined) return undefined;
  const scheme = schemeOf(uri);
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (bare === '' || (scheme === 'file' && bare.toLowerCase() === 'localhost')) return undefined;
  // A bracketed host is IPv6, which the URL parser has already read for every scheme.
  const inet = INET_HOST_SCHEMES.has(scheme) && !host.startsWith('[');
  const reason = blockedHost(inet ? clientHost(bare) : bare);
  return reason === undefined
    ? undefined
    : `guard: ${host} is refused by the SSRF guard (${reason})`;
}

/** Why the bridge does not read `uri`, or undefined. */
export function refuseLink(
  uri: string,
  patterns: ReadonlyArray<(uri: string) => boolean> | null,
): string | undefined {
  if (uri.length > MAX_LINK_URI_CHARS)
    return `consent: the URI is ${uri.length} characters long, over the ${MAX_LINK_URI_CHARS} the bridge reads links for`;
  if (patterns && !patterns.some((matches) => matches(uri)))
    return 'consent: the URI matches none of the configured URI patterns';
  const scheme = schemeOf(uri);
  const host = hostOf(uri);
  if (host === undefined) return NETWORK_SCHEMES.has(scheme) ? 'guard: not a valid URL' : undefined;
  const blocked = blockedLinkHost(uri);
  if (blocked !== undefined) return blocked;
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (bare === '' || (scheme === 'file' && bare.toLowerCase() === 'localhost')) return undefined;
  if (NETWORK_SCHEMES.has(scheme))
    return `guard: the bridge does not have the upstream fetch ${scheme}: URLs (what it connects to cannot be checked here); the host may fetch it itself`;
  return undefined;
}
