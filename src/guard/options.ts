/**
 * The guard's options, their defaults, and the checks that run once when a guard is made.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { parseAllowList, type AllowList } from './allow-list.js';

/** One answer of a name lookup. */
export interface LookupAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (like `dns.lookup` with `all: true`). */
export type GuardLookup = (hostname: string) => Promise<LookupAddress[]>;

/** Options of `guardedFetch` and `createGuard`. */
export interface GuardOptions {
  /**
   * Host names (as written in the URL, case-insensitive, trailing dot ignored), IP addresses or
   * CIDRs exempt from the guard. A hop is exempt when its host name is listed, or when an address
   * or CIDR entry covers an address it resolves to. A CIDR never exempts a metadata address.
   */
  allow?: readonly string[];
  /** Name resolution (default: `node:dns` `lookup` with `all: true`). Tests pass a stub. */
  lookup?: GuardLookup;
  /** Redirects followed before `GUARD_REDIRECT_LIMIT` (default 5; 0 follows none). */
  maxRedirects?: number;
  /** The most decoded body bytes read (default 10 MiB); past it: `GUARD_TOO_LARGE`, body cut. */
  maxBytes?: number;
  /**
   * The time for the whole chain, lookups, connects, redirects and body included (default 30 s);
   * past it: `GUARD_TIMEOUT`. A non-finite value means no limit.
   */
  timeoutMs?: number;
  /** Aborts every fetch of this guard (`REQUEST_CANCELLED`, or the reason if it is an McpKitError). */
  signal?: AbortSignal;
  /** Request headers sent on every hop (`authorization` and `cookie` dropped when a redirect leaves the origin). */
  headers?: Record<string, string>;
  /** Refuse a redirect from https to plain http (`GUARD_BLOCKED`), default false. */
  noDowngrade?: boolean;
}

export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
// setTimeout fires at once past 2^31 - 1 ms; anything that long is treated as no limit.
const MAX_TIMER_MS = 2 ** 31 - 1;

export const defaultLookup: GuardLookup = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** Options as a guard uses them: checked, defaults filled, the allow-list parsed. */
export interface ResolvedOptions {
  allow: AllowList;
  lookup: GuardLookup;
  maxRedirects: number;
  maxBytes: number;
  /** Undefined: no time limit. */
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
  headers: Record<string, string>;
  noDowngrade: boolean;
}

function nonNegativeInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`guard: ${name} must be an integer >= 0, got ${String(value)}`);
  return value;
}

function timeout(value: number | undefined): number | undefined {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  if (Number.isNaN(value) || value <= 0)
    throw new RangeError(`guard: timeoutMs must be > 0, got ${String(value)}`);
  return Number.isFinite(value) && value <= MAX_TIMER_MS ? value : undefined;
}

// Names a caller may not set: the guard owns the Host it checked and how the body is framed.
const OWNED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

function requestHeaders(given: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    accept: '*/*',
    'accept-encoding': 'gzip, deflate, br',
    'user-agent': 'mcpkit-guard',
  };
  for (const [name, value] of Object.entries(given ?? {})) {
    const lower = name.toLowerCase();
    if (OWNED_HEADERS.has(lower))
      throw new TypeError(`guard: the ${lower} header is set by the guard, not by options.headers`);
    headers[lower] = value;
  }
  return headers;
}

/** Checks options once; throws `TypeError`/`RangeError` naming the option that is wrong. */
export function resolveOptions(options: GuardOptions = {}): ResolvedOptions {
  return {
    allow: parseAllowList(options.allow),
    lookup: options.lookup ?? defaultLookup,
    maxRedirects: nonNegativeInteger('maxRedirects', options.maxRedirects, DEFAULT_MAX_REDIRECTS),
    maxBytes: nonNegativeInteger('maxBytes', options.maxBytes, DEFAULT_MAX_BYTES),
    timeoutMs: timeout(options.timeoutMs),
    signal: options.signal,
    headers: requestHeaders(options.headers),
    noDowngrade: options.noDowngrade === true,
  };
}
