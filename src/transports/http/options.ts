import type { OriginGuardOptions } from './origin-guard.js';

/** Options of the Streamable HTTP endpoint, shared by the web and node adapters. */
export interface HttpOptions extends OriginGuardOptions {
  /** Path served (default '/mcp'); null serves every path. */
  path?: string | null;
  /** Largest accepted request body in bytes (default 4 MiB); larger gets 413. */
  maxBodyBytes?: number;
  /** Host/Origin checks against DNS rebinding (default true). */
  dnsRebindingProtection?: boolean;
  /** Largest response sent, in bytes (default: maxBodyBytes); a larger result becomes a clear -32603 error. */
  maxResponseBytes?: number;
  /** Serve 2025-11-25 clients (initialize, sessions, GET stream) on the same endpoint (default true). */
  legacy?: boolean;
  /** Idle time after which a legacy session is dropped (default 30 minutes). */
  sessionIdleMs?: number;
  /** Most legacy sessions at once (default 10,000); beyond it `initialize` gets 503. */
  maxSessions?: number;
  /** Interval of SSE keep-alive comments (default 15 s; 0 disables). */
  keepAliveMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The largest response this endpoint sends. */
export function maxResponseBytesOf(options: HttpOptions): number {
  return options.maxResponseBytes ?? options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
}
