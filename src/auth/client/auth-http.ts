/**
 * The one way the OAuth client talks to the network (metadata, registration, token endpoint):
 * every hop through the SSRF guard's check, connected to the address it checked, https required
 * except for loopback (development), bodies capped in size and the exchange in time.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { McpKitError } from '../../errors/index.js';
import { classifyAddress } from '../../guard/address.js';
import { checkTarget } from '../../guard/check-target.js';
import { resolveOptions, type GuardLookup, type ResolvedOptions } from '../../guard/options.js';
import { pinnedLookup } from '../../guard/request.js';

/** Where the OAuth client may connect. */
export interface AuthHttpPolicy {
  /** Loopback hosts (and plain http to them) allowed: true when the MCP server is on loopback. */
  allowLoopback: boolean;
  /** Extra guard allow-list entries (host names, addresses, CIDRs), e.g. a private network AS. */
  allow?: readonly string[];
  /** Name resolution (tests). */
  lookup?: GuardLookup;
  /** The longest one exchange may take, redirects included (default 10 s). */
  timeoutMs?: number;
  /** The largest body read (default 1 MiB). */
  maxBytes?: number;
}

export interface AuthHttpRequest {
  method: 'GET' | 'POST';
  url: string | URL;
  headers?: Record<string, string>;
  body?: string;
  /** Follow up to 3 redirects, each hop checked again (GET of metadata only). */
  follow?: boolean;
}

export interface AuthHttpAnswer {
  status: number;
  /** Lowercase names. */
  headers: Record<string, string>;
  text: string;
  /** The final URL. */
  url: string;
}

export const DEFAULT_AUTH_TIMEOUT_MS = 10_000;
export const DEFAULT_AUTH_MAX_BYTES = 1024 * 1024;
const MAX_HOPS = 3;
const LOOPBACK_ALLOW = ['127.0.0.0/8', '::1'];

/** True for `localhost`, 127/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && classifyAddress(host) === 'loopback';
}

/** The guard options a policy means, checked once per client. */
export function guardOptionsFor(policy: AuthHttpPolicy): ResolvedOptions {
  return resolveOptions({
    allow: [...(policy.allow ?? []), ...(policy.allowLoopback ? LOOPBACK_ALLOW : [])],
    ...(policy.lookup === undefined ? {} : { lookup: policy.lookup }),
    timeoutMs: policy.timeoutMs ?? DEFAULT_AUTH_TIMEOUT_MS,
    headers: { accept: 'application/json', 'accept-encoding': 'identity' },
  });
}

function fail(message: string, cause?: unknown): McpKitError {
  return new McpKitError('AUTH_FAILED', message, cause === undefined ? undefined : { cause });
}

/** Refuses plain http to anything but loopback, and any other scheme. */
export function requireSecure(url: URL, policy: AuthHttpPolicy): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && policy.allowLoopback && isLoopbackHost(url.hostname)) return;
  throw fail(
    `${url.origin}: OAuth endpoints must use https (plain http only to loopback when the MCP server is on loopback)`,
  );
}

/**
 * One OAuth exchange. Resolves with any status (the caller reads OAuth error bodies); rejects
 * with AUTH_FAILED (or the guard's error) when the target is refused, the body is too large
 * or the time ran out.
 */
export async function authRequest(
  policy: AuthHttpPolicy,
  guard: ResolvedOptions,
  call: AuthHttpRequest,
): Promise<AuthHttpAnswer> {
  const timeoutMs = policy.timeoutMs ?? DEFAULT_AUTH_TIMEOUT_MS;
  const maxBytes = policy.maxBytes ?? DEFAULT_AUTH_MAX_BYTES;
  const signal = AbortSignal.timeout(timeoutMs);
  let url = new URL(call.url);
  for (let hop = 0; ; hop++) {
    requireSecure(url, policy);
    const target = await checkTarget(url, guard, signal);
    const answer = await send(target, call, guard, signal, maxBytes, timeoutMs);
    const location = answer.headers['location'];
    const redirect = answer.status >= 300 && answer.status < 400 && location !== undefined;
    if (!redirect || !call.follow) return answer;
    if (hop >= MAX_HOPS) throw fail(`${url.href}: more than ${MAX_HOPS} redirects`);
    url = new URL(location, url);
  }
}

function send(
  target: Awaited<ReturnType<typeof checkTarget>>,
  call: AuthHttpRequest,
  guard: ResolvedOptions,
  signal: AbortSignal,
  maxBytes: number,
  timeoutMs: number,
): Promise<AuthHttpAnswer> {
  const { url, hostname, addresses } = target;
  const secure = url.protocol === 'https:';
  const headers: Record<string, string> = { ...guard.headers, ...lower(call.headers) };
  if (call.body !== undefined) headers['content-length'] = String(Buffer.byteLength(call.body));
  return new Promise<AuthHttpAnswer>((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: call.method,
      headers: { ...headers, host: url.host },
      agent: false,
      lookup: pinnedLookup(addresses),
      signal,
      ...(secure && isIP(hostname) === 0 ? { servername: hostname.replace(/\.$/, '') } : {}),
    });
    const onError = (error: unknown) => {
      if (signal.aborted) {
        reject(fail(`${call.method} ${url.href} took longer than ${timeoutMs} ms`, error));
      } else {
        const why = error instanceof Error ? error.message : String(error);
        reject(fail(`${call.method} ${url.href} failed: ${why}`, error));
      }
    };
    request.on('error', onError);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          response.destroy();
          reject(fail(`${call.method} ${url.href}: the answer is larger than ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', onError);
      response.on('end', () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({
          status: response.statusCode ?? 0,
          headers: flat,
          text: Buffer.concat(chunks).toString('utf8'),
          url: url.href,
        });
      });
    });
    request.end(call.body);
  });
}

function lower(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}

/** The JSON object of a 2xx answer, or AUTH_FAILED naming what was wrong. */
export function jsonObject(answer: AuthHttpAnswer, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(answer.text);
  } catch {
    throw fail(`${what} at ${answer.url} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fail(`${what} at ${answer.url} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}
