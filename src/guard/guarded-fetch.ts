/**
 * The guarded GET: check the URL, connect to the checked address, follow redirects (each hop
 * checked again with its own lookup, their number capped), read the body under a byte cap, all
 * within one deadline for the whole chain.
 */
import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import { McpKitError } from '../errors/index.js';
import { checkTarget, type CheckedTarget } from './check-target.js';
import { GuardError, quoted } from './guard-error.js';
import { resolveOptions, type GuardOptions, type ResolvedOptions } from './options.js';
import { readBody } from './read-body.js';
import { requestHop, type HopResponse } from './request.js';

/** What a guarded fetch returns: a 2xx answer, its body read in full. */
export interface GuardedResponse {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  /** Response headers, names lower-cased (repeated ones joined with `, `). */
  headers: Record<string, string>;
  /** `content-type` without its parameters, lower-cased; absent when the answer had none. */
  mimeType?: string;
  /** The decoded body (gzip, deflate and br are undone). */
  bytes: Uint8Array;
  /** Every URL redirected to, in order (empty: no redirect; else the last one is `url`). */
  redirects: string[];
  /** The IP address connected to for the final hop. */
  address: string;
}

/** A hop that passed the guard, without connecting: see `Guard.check`. */
export interface GuardCheck {
  url: string;
  /** The URL's host name (no brackets). */
  hostname: string;
  /** The addresses it resolved to, every one checked: a fetch would connect to one of these. */
  addresses: string[];
}

/** Per-call extras of `Guard.fetch`: a signal of its own, and a cap that can only be lower. */
export interface GuardFetchExtra {
  signal?: AbortSignal;
  /** Lowers the guard's `maxBytes` for this call (never raises it). */
  maxBytes?: number;
}

/** A guard: options checked once, allow-list parsed once, used for many fetches. */
export interface Guard {
  fetch(url: string | URL, extra?: GuardFetchExtra): Promise<GuardedResponse>;
  /** Parses and resolves `url` and checks every address, as the first hop of a fetch would. */
  check(url: string | URL, extra?: { signal?: AbortSignal }): Promise<GuardCheck>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Sent to the origin they were meant for only (as fetch does on a cross-origin redirect).
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** Where the chain is: what a timeout or a late failure names. */
interface ChainState {
  url: string;
  address?: string;
}

function at(state: ChainState): string {
  return state.address === undefined
    ? quoted(state.url)
    : `${quoted(state.url)} (${state.address})`;
}

function details(state: ChainState) {
  return state.address === undefined
    ? { url: state.url }
    : { url: state.url, address: state.address };
}

/** One AbortSignal for the chain: the deadline, the guard's signal and the call's signal. */
function startChain(options: ResolvedOptions, state: ChainState, extra?: AbortSignal) {
  const controller = new AbortController();
  const cleanups: Array<() => void> = [];
  const { timeoutMs } = options;
  if (timeoutMs !== undefined) {
    const timer = setTimeout(() => {
      const message = `${at(state)} took longer than ${timeoutMs} ms (lookups, redirects and body included)`;
      controller.abort(new GuardError('GUARD_TIMEOUT', message, details(state)));
    }, timeoutMs);
    cleanups.push(() => clearTimeout(timer));
  }
  for (const signal of [options.signal, extra]) {
    if (signal === undefined) continue;
    const onAbort = () => {
      const reason: unknown = signal.reason;
      controller.abort(
        reason instanceof McpKitError
          ? reason
          : new GuardError('REQUEST_CANCELLED', `${at(state)}: fetch cancelled`, details(state), {
              cause: reason,
            }),
      );
    };
    if (signal.aborted) onAbort();
    else {
      signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener('abort', onAbort));
    }
  }
  return { signal: controller.signal, done: () => cleanups.forEach((cleanup) => cleanup()) };
}

/** Runs `work` under the chain; maps whatever escapes to the abort reason or `FETCH_FAILED`. */
async function inChain<T>(
  options: ResolvedOptions,
  state: ChainState,
  extra: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const chain = startChain(options, state, extra);
  try {
    if (chain.signal.aborted) throw chain.signal.reason;
    return await work(chain.signal);
  } catch (error) {
    if (chain.signal.aborted) throw chain.signal.reason;
    if (error instanceof McpKitError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new GuardError('FETCH_FAILED', `GET ${at(state)} failed: ${why}`, details(state), {
      cause: error,
    });
  } finally {
    chain.done();
  }
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  for (const name of CREDENTIAL_HEADERS) delete out[name];
  return out;
}

async function nextHop(
  hop: HopResponse,
  target: CheckedTarget,
  followed: number,
  options: ResolvedOptions,
  signal: AbortSignal,
): Promise<CheckedTarget> {
  const from = target.url.href;
  const location = String(hop.response.headers.location);
  hop.response.destroy();
  if (followed >= options.maxRedirects) {
    const message = `${quoted(from)} redirected more than ${options.maxRedirects} time(s) (next: ${quoted(location)}); raise maxRedirects if that is expected`;
    throw new GuardError('GUARD_REDIRECT_LIMIT', message, { url: from, address: hop.address });
  }
  const context = ` (redirect ${followed + 1}, from ${quoted(from)})`;
  let next: URL;
  try {
    next = new URL(location, target.url);
  } catch (error) {
    const message = `${quoted(location)} is not a URL${context}`;
    throw new GuardError('GUARD_BAD_URL', message, { url: location }, { cause: error });
  }
  if (options.noDowngrade && target.url.protocol === 'https:' && next.protocol === 'http:') {
    const message = `${quoted(next.href)}: a redirect from https to plain http is refused${context}`;
    throw new GuardError('GUARD_BLOCKED', message, { url: next.href });
  }
  return checkTarget(next, options, signal, context);
}

async function fetchChain(
  input: string | URL,
  options: ResolvedOptions,
  maxBytes: number,
  state: ChainState,
  signal: AbortSignal,
): Promise<GuardedResponse> {
  let headers = options.headers;
  const redirects: string[] = [];
  let target = await checkTarget(input, options, signal);
  for (;;) {
    state.url = target.url.href;
    delete state.address;
    const hop = await requestHop(target, headers, signal);
    state.address = hop.address;
    const status = hop.response.statusCode ?? 0;
    if (REDIRECT_STATUSES.has(status) && hop.response.headers.location !== undefined) {
      const next = await nextHop(hop, target, redirects.length, options, signal);
      if (next.url.origin !== target.url.origin) headers = withoutCredentials(headers);
      redirects.push(next.url.href);
      target = next;
      continue;
    }
    if (status < 200 || status > 299) {
      hop.response.destroy();
      const message = `GET ${at(state)} answered ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
      throw new GuardError('FETCH_FAILED', message, { ...details(state), status });
    }
    const bytes = await readBody(hop.response, { url: state.url, address: hop.address, maxBytes });
    const responseHeaders = flatHeaders(hop.response.headers);
    const type = responseHeaders['content-type']?.split(';')[0]?.trim().toLowerCase();
    const response: GuardedResponse = {
      url: target.url.href,
      status,
      headers: responseHeaders,
      bytes,
      redirects,
      address: hop.address,
    };
    if (type !== undefined && type !== '') response.mimeType = type;
    return response;
  }
}

/**
 * Makes a guard: checks the options once (a `TypeError` or `RangeError` names a bad one) and
 * returns `fetch` and `check`, which share them.
 *
 * @example
 * const guard = createGuard({ allow: ['10.1.2.3'], timeoutMs: 10_000 });
 * const page = await guard.fetch('https://example.com/doc.txt', { maxBytes: 1 << 20 });
 */
export function createGuard(options: GuardOptions = {}): Guard {
  const resolved = resolveOptions(options);
  return {
    fetch(url, extra = {}) {
      const maxBytes = Math.min(resolved.maxBytes, extra.maxBytes ?? Infinity);
      if (!(maxBytes >= 0)) {
        const message = `guard: maxBytes must be >= 0, got ${String(extra.maxBytes)}`;
        return Promise.reject(new RangeError(message));
      }
      const state: ChainState = { url: String(url) };
      return inChain(resolved, state, extra.signal, (signal) =>
        fetchChain(url, resolved, maxBytes, state, signal),
      );
    },
    check(url, extra = {}) {
      const state: ChainState = { url: String(url) };
      return inChain(resolved, state, extra.signal, async (signal) => {
        const target = await checkTarget(url, resolved, signal);
        return {
          url: target.url.href,
          hostname: target.hostname,
          addresses: target.addresses.map(({ address }) => address),
        };
      });
    },
  };
}

/**
 * Fetches `url` with GET through the SSRF guard (see `createGuard` to reuse options).
 *
 * @example
 * const { bytes, mimeType } = await guardedFetch('https://example.com/data.json');
 */
export async function guardedFetch(
  url: string | URL,
  options?: GuardOptions,
): Promise<GuardedResponse> {
  return createGuard(options).fetch(url);
}
