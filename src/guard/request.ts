/**
 * One GET over node:http/https to a checked target. The socket's `lookup` hands back only the
 * addresses the guard checked, so the connection cannot go anywhere else whatever DNS says by
 * then; the URL's host name still goes in the Host header and in TLS (SNI and the certificate
 * check), so HTTPS verifies the name the URL gave.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { parseIp } from './address.js';
import type { CheckedTarget } from './check-target.js';
import { GuardError, quoted } from './guard-error.js';
import type { LookupAddress } from './options.js';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

function wantedFamily(family: unknown): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  return family === 6 || family === 'IPv6' ? 6 : 0;
}

/**
 * A `lookup` for net/tls that answers from the checked list and never asks DNS. Node calls it
 * with `all: true` when it tries several addresses (autoSelectFamily): every one is checked.
 */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return ((_hostname: string, options: unknown, callback?: LookupCallback) => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const opts = (typeof options === 'object' && options !== null ? options : {}) as {
      all?: boolean;
      family?: unknown;
    };
    const wanted = wantedFamily(opts.family);
    const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
    const first = usable[0];
    if (first === undefined) {
      const error: NodeJS.ErrnoException = new Error('no checked address of the family asked for');
      error.code = 'ENOTFOUND';
      process.nextTick(cb, error, opts.all ? [] : '', 0);
    } else if (opts.all) {
      const all = usable.map((a) => ({ ...a }));
      process.nextTick(cb, null, all);
    } else process.nextTick(cb, null, first.address, first.family);
  }) as LookupFunction;
}

function sameAddress(a: string, b: string): boolean {
  const pa = parseIp(a);
  const pb = parseIp(b);
  return (
    pa !== undefined && pb !== undefined && pa.toNormalizedString() === pb.toNormalizedString()
  );
}

export interface HopResponse {
  response: IncomingMessage;
  /** The address the socket is connected to. */
  address: string;
}

/**
 * Sends one GET and resolves with the response head. `signal` destroys the request (and its
 * response) when it aborts; the caller maps that to its own reason.
 */
export function requestHop(
  target: CheckedTarget,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<HopResponse> {
  const { url, hostname, addresses } = target;
  const secure = url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  return new Promise<HopResponse>((resolve, reject) => {
    const request = send({
      protocol: url.protocol,
      hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { ...headers, host: url.host },
      // A fresh socket per hop: a pooled one could have been connected under another check.
      agent: false,
      lookup: pinnedLookup(addresses),
      signal,
      // TLS checks the certificate against the URL's name; SNI never carries an IP or a trailing dot.
      ...(secure && isIP(hostname) === 0 ? { servername: hostname.replace(/\.$/, '') } : {}),
    });
    // Kept for the request's life: a late error (socket reset mid-body) must not go unhandled.
    request.on('error', reject);
    request.once('response', (response) => {
      const remote = response.socket?.remoteAddress;
      // Belt and braces: the pinned lookup makes this impossible, but it is cheap to be sure.
      if (remote !== undefined && !addresses.some((a) => sameAddress(a.address, remote))) {
        response.destroy();
        const message = `${quoted(url.href)}: connected to ${remote}, which the guard did not check`;
        reject(new GuardError('GUARD_BLOCKED', message, { url: url.href, address: remote }));
        return;
      }
      resolve({ response, address: remote ?? addresses[0]?.address ?? hostname });
    });
    request.end();
  });
}
