/**
 * The checks the bridge adds before a link is read upstream, beyond the resolver's policy: the
 * configured URI patterns, and for http(s) URIs the SSRF guard's verdict on a literal address
 * (the bridge fetches nothing itself, and does not ask the upstream for what the guard refuses).
 */
import { classifyAddress } from '../../guard/index.js';
import { schemeOf } from '../../host/policy.js';

/** A glob (`*` any run, `?` one character) as an anchored regular expression. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 's');
}

const LOCAL_NAMES = /(^|\.)(localhost|localdomain|internal|local)$/i;

/** Why the bridge does not read `uri`, or undefined. */
export function refuseLink(uri: string, patterns: readonly RegExp[] | null): string | undefined {
  if (patterns && !patterns.some((p) => p.test(uri)))
    return 'consent: the URI matches none of the configured URI patterns';
  const scheme = schemeOf(uri);
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  let host: string;
  try {
    host = new URL(uri).hostname;
  } catch {
    return 'guard: not a valid URL';
  }
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (LOCAL_NAMES.test(bare)) return `guard: ${host} names a local host`;
  const reason = classifyAddress(bare);
  if (reason !== undefined && reason !== 'invalid') return `guard: ${host} is a ${reason} address`;
  return undefined;
}
