/**
 * One hop's check: parse the URL, refuse what is not http(s) or carries credentials, resolve the
 * name ONCE and judge every address it returned. The addresses that passed are the only ones the
 * request may connect to (see `request.ts`), so a second answer from DNS never matters.
 */
import { isIP } from 'node:net';
import { checkParsedAddress, comparableName } from './allow-list.js';
import { classifyAddress, type BlockReason } from './address.js';
import { GuardError, quoted } from './guard-error.js';
import type { LookupAddress, ResolvedOptions } from './options.js';

/** A hop that passed the guard. */
export interface CheckedTarget {
  url: URL;
  /** The URL's host name without brackets, as the request sends it (Host header, TLS SNI). */
  hostname: string;
  /** The checked addresses, in the resolver's order: the request connects to these only. */
  addresses: LookupAddress[];
}

// Names that never leave the machine (RFC 6761) or that only cloud metadata answers to.
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog']);

const LOCALHOST: LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

function blockedName(name: string): BlockReason | undefined {
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  return METADATA_NAMES.has(name) ? 'metadata' : undefined;
}

/**
 * What the guard refuses about a host before asking DNS, ignoring any allow-list: a name that is
 * local or cloud metadata by definition (`localhost`, `*.localhost`, `metadata.google.internal`,
 * in any case, a trailing dot included), or an IP address it refuses, as the URL parser writes
 * a host (dotted IPv4, IPv6 with or without brackets; `http://127.1/` is parsed to `127.0.0.1`).
 * Undefined for a public address and for any other name (only its resolution tells).
 */
export function blockedHost(hostname: string): BlockReason | undefined {
  const name = comparableName(hostname);
  return isIP(name) === 0 ? blockedName(name) : classifyAddress(name);
}

/** Parses a URL the guard may fetch, or throws `GUARD_BAD_URL`. `context` ends the message. */
export function parseGuardUrl(input: string | URL, context = ''): URL {
  const text = String(input);
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw new GuardError(
      'GUARD_BAD_URL',
      `${quoted(text)} is not a URL${context}`,
      { url: text },
      {
        cause: error,
      },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const message = `${quoted(url.href)}: only http: and https: URLs are fetched, not ${url.protocol}${context}`;
    throw new GuardError('GUARD_BAD_URL', message, { url: url.href });
  }
  if (url.username !== '' || url.password !== '') {
    // Named without them: the message may end up in a log.
    const shown = new URL(url.href);
    shown.username = '';
    shown.password = '';
    const message = `${quoted(shown.href)}: credentials in a URL (user:password@) are refused${context}`;
    throw new GuardError('GUARD_BAD_URL', message, { url: shown.href });
  }
  return url;
}

/** Rejects with the signal's reason when it aborts first; the lookup itself cannot be stopped. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

async function resolveName(
  url: URL,
  hostname: string,
  options: ResolvedOptions,
  signal: AbortSignal,
  context: string,
): Promise<LookupAddress[]> {
  let answers: unknown;
  try {
    answers = await abortable(options.lookup(hostname), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    const message = `${quoted(url.href)}: the name ${quoted(hostname)} did not resolve (${why})${context}`;
    throw new GuardError('FETCH_FAILED', message, { url: url.href }, { cause: error });
  }
  const list = Array.isArray(answers) ? (answers as Array<Partial<LookupAddress>>) : [];
  const addresses: LookupAddress[] = [];
  for (const answer of list) {
    const address = typeof answer?.address === 'string' ? answer.address : String(answer?.address);
    const family = isIP(address);
    // A resolver that answers something other than an address gets nothing connected to.
    if (family === 0) {
      const message = `${quoted(url.href)}: ${quoted(hostname)} resolved to ${quoted(address)}, which is not an IP address${context}`;
      throw new GuardError('GUARD_BLOCKED', message, { url: url.href, address, reason: 'invalid' });
    }
    addresses.push({ address, family: family === 6 ? 6 : 4 });
  }
  if (addresses.length === 0) {
    const message = `${quoted(url.href)}: the name ${quoted(hostname)} resolved to no address${context}`;
    throw new GuardError('FETCH_FAILED', message, { url: url.href });
  }
  return addresses;
}

function refused(url: URL, hostname: string, address: string, reason: string, context: string) {
  const where =
    isIP(hostname) !== 0
      ? `${address} is ${reason}`
      : `${quoted(hostname)} resolves to ${address}, which is ${reason}`;
  const message = `${quoted(url.href)} refused: ${where}; list it in allow to fetch it anyway${context}`;
  return new GuardError('GUARD_BLOCKED', message, { url: url.href, address, reason });
}

/**
 * Checks one hop. Policy for a name with several addresses: if ANY of them is refused, the hop is
 * refused (an answer mixing public and internal addresses is hostile or broken; refusing does not
 * depend on the order DNS returned them in). `context` is appended to messages (redirect hops).
 */
export async function checkTarget(
  input: string | URL,
  options: ResolvedOptions,
  signal: AbortSignal,
  context = '',
): Promise<CheckedTarget> {
  const url = parseGuardUrl(input, context);
  const raw = url.hostname;
  const hostname = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  const byName = options.allow.hasName(hostname);
  let addresses: LookupAddress[];
  const family = isIP(hostname);
  if (family !== 0) {
    // The URL parser has already turned 127.1, 0x7f000001, 2130706433 … into dotted form.
    addresses = [{ address: hostname, family: family === 6 ? 6 : 4 }];
  } else {
    const name = comparableName(hostname);
    const reason = byName ? undefined : blockedName(name);
    // `localhost` is loopback by definition, never asked of DNS: it is allowed when the list
    // covers 127.0.0.1 or ::1 (the address it stands for), and connects to the covered one.
    const local =
      reason === 'loopback'
        ? LOCALHOST.filter((a) => !checkParsedAddress(a.address, options.allow))
        : [];
    if (local.length > 0) return { url, hostname, addresses: local };
    if (reason !== undefined) {
      const message = `${quoted(url.href)} refused: the name ${quoted(name)} is ${reason}; list it in allow to fetch it anyway${context}`;
      throw new GuardError('GUARD_BLOCKED', message, { url: url.href, reason });
    }
    addresses = await resolveName(url, hostname, options, signal, context);
  }
  if (!byName) {
    for (const { address } of addresses) {
      const reason = checkParsedAddress(address, options.allow);
      if (reason !== undefined) throw refused(url, hostname, address, reason, context);
    }
  }
  return { url, hostname, addresses };
}
