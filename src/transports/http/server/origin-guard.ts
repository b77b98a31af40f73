/** DNS-rebinding protection: Host and Origin must name an allowed host. */

export interface OriginGuardOptions {
  /** Host names (without port) accepted in `Host`; default: localhost, 127.0.0.1, [::1]. */
  allowedHosts?: string[];
  /** Origins (scheme://host[:port]) or host names accepted in `Origin`; default: the allowed hosts. */
  allowedOrigins?: string[];
}

export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]', '::1'];

/** The `Host` names a server bound to `host` accepts: loopback, `host` itself, then `extra`. */
export function hostsAllowedFor(host: string, extra: readonly string[] = []): string[] {
  // Host and Origin write an IPv6 address in brackets ([fd00::2]:3333): bound to `fd00::2`,
  // the bracketed form is the one a client sends.
  const bound = host.includes(':') && !host.startsWith('[') ? [host, `[${host}]`] : [host];
  return [...new Set([...LOOPBACK_HOSTS, ...bound, ...extra])];
}

function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end > 0 ? value.slice(0, end + 1) : value;
  }
  const colon = value.indexOf(':');
  return colon >= 0 ? value.slice(0, colon) : value;
}

export type OriginGuard = (
  host: string | undefined,
  origin: string | undefined,
) => string | undefined;

/** Builds the check once: returns why a request is refused (-> 403), or undefined. */
export function createOriginGuard(options: OriginGuardOptions): OriginGuard {
  const hosts = new Set((options.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase()));
  const allowed = options.allowedOrigins?.map((o) => o.toLowerCase());
  return (host, origin) => {
    if (host !== undefined && !hosts.has(hostnameOf(host))) {
      return `Host ${JSON.stringify(host)} is not allowed (allowedHosts)`;
    }
    if (origin === undefined) return undefined;
    const value = origin.trim().toLowerCase();
    if (allowed?.includes(value)) return undefined;
    let originHost: string;
    try {
      originHost = new URL(value).host;
    } catch {
      return `Origin ${JSON.stringify(origin)} is not a valid origin`;
    }
    const name = hostnameOf(originHost);
    const ok = allowed ? allowed.includes(name) : hosts.has(name);
    return ok ? undefined : `Origin ${JSON.stringify(origin)} is not allowed (allowedOrigins)`;
  };
}

/** One-off form of {@link createOriginGuard}. */
export function checkOrigin(
  host: string | undefined,
  origin: string | undefined,
  options: OriginGuardOptions,
): string | undefined {
  return createOriginGuard(options)(host, origin);
}
