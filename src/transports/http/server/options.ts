import { MIN_RESPONSE_BYTES } from '../../oversize.js';
import { integerOption } from '../../integer-option.js';
import type { OriginGuardOptions } from './origin-guard.js';
import type { ResourceServer } from '../../../auth/server/index.js';

/** Options of the Streamable HTTP endpoint, shared by the web and node adapters. */
export interface HttpOptions extends OriginGuardOptions {
  /**
   * Path served (default '/mcp'; for a node handler that a framework routed the request to, such
   * as Express's `app.use('/mcp', h)`, wherever it is mounted); null serves every path.
   */
  path?: string | null;
  /** Largest accepted request body in bytes (default 4 MiB); larger gets 413. */
  maxBodyBytes?: number;
  /**
   * Most bytes all request bodies being read may hold at once (default 64 MiB; keep it at least
   * maxBodyBytes). A body that would pass it gets 503 with `retry-after`, and is not buffered.
   */
  maxBodyTotalBytes?: number;
  /**
   * A request body that sends nothing for this long gets 408 and is dropped (default 10 s; 0:
   * never). Checked every half of it: a stalled body is dropped within 1.5 times this.
   */
  bodyTimeoutMs?: number;
  /**
   * Protects the endpoint (mcpkit/auth): a bearer token on every request, Protected Resource
   * Metadata served at `/.well-known/oauth-protected-resource` (and its form suffixed with the
   * endpoint's path), the caller handed to handlers as `ctx.auth`.
   */
  auth?: ResourceServer;
  /** Host/Origin checks against DNS rebinding (default true). */
  dnsRebindingProtection?: boolean;
  /**
   * Outbound: the largest response body or SSE message sent, in bytes (default 32 MiB). It
   * models the receiver, not this server (inbound is `maxBodyBytes`): results are assembled
   * under it, and a response that would not fit becomes a clear -32603 error. At least 4096.
   */
  maxResponseBytes?: number;
  /** Serve 2025-11-25 clients (initialize, sessions, GET stream) on the same endpoint (default true). */
  legacy?: boolean;
  /** Idle time after which a legacy session is dropped (default 30 minutes). */
  sessionIdleMs?: number;
  /**
   * Most legacy sessions at once (default 10,000). When full, `initialize` evicts the least
   * recently used idle session; it gets 503 only when none is idle (all have a GET stream or a
   * request in flight, or are initializing).
   */
  maxSessions?: number;
  /**
   * Interval of SSE keep-alive comments (`: keep-alive` lines) on every open SSE stream: listen
   * streams, legacy GET streams, and any answer that switched to SSE (default 15 s; 0 disables).
   * They keep proxies and load balancers from closing an idle listen; none is written while the
   * client is not reading. An integer from 0 to 2147483647.
   */
  keepAliveMs?: number;
  /**
   * A response whose client takes none of its bytes for this long is cut and the connection
   * closed (default 30 s; 0: never), so that a client that asks for large answers and does not
   * read them holds nothing for long: its share of `maxResponseTotalBytes` is given back. Node
   * adapter only (`toNodeHandler`, `serveHttp`); listen streams have their own bounds.
   */
  writeTimeoutMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_BODY_TOTAL_BYTES = 64 * 1024 * 1024;
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 10_000;

/** The body and session limits of `options`, each checked once (a RangeError naming it). */
export function endpointLimitsOf(options: HttpOptions) {
  const positive = (name: string, value: number | undefined, fallback: number): number =>
    integerOption('http', name, value, fallback);
  const timeout = options.bodyTimeoutMs;
  const idle = options.sessionIdleMs;
  return {
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES),
    maxBodyTotalBytes: positive(
      'maxBodyTotalBytes',
      options.maxBodyTotalBytes,
      DEFAULT_MAX_BODY_TOTAL_BYTES,
    ),
    bodyTimeoutMs: timerMs('bodyTimeoutMs', timeout, DEFAULT_BODY_TIMEOUT_MS, 'never'),
    sessionIdleMs: integerOption(
      'http',
      'sessionIdleMs',
      idle,
      DEFAULT_SESSION_IDLE_MS,
      1,
      'an integer from 1 to 2147483647',
      MAX_TIMER_MS,
    ),
    maxSessions: positive('maxSessions', options.maxSessions, DEFAULT_MAX_SESSIONS),
  };
}

/** What HTTP clients take (the official SDK reads whole bodies): 32 MiB. */
export const DEFAULT_HTTP_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** The largest response this endpoint sends; throws on a value below MIN_RESPONSE_BYTES. */
export function maxResponseBytesOf(options: HttpOptions): number {
  const [value, min] = [options.maxResponseBytes, MIN_RESPONSE_BYTES];
  return integerOption('http', 'maxResponseBytes', value, DEFAULT_HTTP_MAX_RESPONSE_BYTES, min);
}

/** `writeTimeoutMs` by default: 30 s. */
export const DEFAULT_WRITE_TIMEOUT_MS = 30_000;
/** Interval of SSE keep-alive comments (`keepAliveMs`): 15 s, under common proxy idle timeouts. */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;

/** The write time limit of `options`; throws naming the option for a value it cannot use. */
export function writeTimeoutMsOf(options: HttpOptions): number {
  return timerMs('writeTimeoutMs', options.writeTimeoutMs, DEFAULT_WRITE_TIMEOUT_MS, 'never');
}

/** The keep-alive interval of `options`; throws naming the option for a value it cannot use. */
export function keepAliveMsOf(options: HttpOptions): number {
  const zero = 'no keep-alive comments';
  return timerMs('keepAliveMs', options.keepAliveMs, DEFAULT_KEEP_ALIVE_MS, zero);
}

/** Up to the longest interval a timer takes (2^31 - 1 ms). */
function timerMs(name: string, value: number | undefined, fallback: number, zero: string): number {
  const what = `an integer from 0 (${zero}) to ${MAX_TIMER_MS}`;
  return integerOption('http', name, value, fallback, 0, what, MAX_TIMER_MS);
}

/** The longest a timer waits (2^31 - 1 ms): past it, setTimeout fires at once. */
const MAX_TIMER_MS = 2_147_483_647;
