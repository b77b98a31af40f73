import type { OriginGuardOptions } from './origin-guard.js';

/** Options of the Streamable HTTP endpoint, shared by the web and node adapters. */
export interface HttpOptions extends OriginGuardOptions {
  /** Path served (default '/mcp'); null serves every path. */
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
  /** Host/Origin checks against DNS rebinding (default true). */
  dnsRebindingProtection?: boolean;
  /** Largest response sent, in bytes (default: maxBodyBytes); a larger result becomes a clear -32603 error. */
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
  /** Interval of SSE keep-alive comments (default 15 s; 0 disables). */
  keepAliveMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_BODY_TOTAL_BYTES = 64 * 1024 * 1024;
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** The largest response this endpoint sends. */
export function maxResponseBytesOf(options: HttpOptions): number {
  return options.maxResponseBytes ?? options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
}
