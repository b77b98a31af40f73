import { DEFAULT_MAX_DEPTH } from '../../protocol/depth.js';

/** Options of `HttpClientTransport`. */
export interface HttpClientOptions {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string | URL;
  /** The fetch to use (default `globalThis.fetch`): a proxy agent, a test double, a web handler. */
  fetch?: typeof globalThis.fetch;
  /** Headers sent on every request, e.g. `authorization`; never sent to another origin. */
  headers?: Record<string, string>;
  /**
   * Follow redirects (default false: a 3xx fails with HTTP_REDIRECT). When true, only
   * same-origin 301/302/307/308 hops are followed, re-sending the same method and body.
   */
  allowRedirects?: boolean;
  /**
   * The largest message accepted, in bytes: a JSON body or one SSE event (default 32 MiB).
   * Checked while it streams in; a larger one fails its request with RESPONSE_TOO_LARGE.
   */
  maxResponseBytes?: number;
  /**
   * 2025-11-25: how many times in a row a dropped SSE stream is resumed with `Last-Event-ID`
   * before its request fails (default 3).
   */
  maxReconnects?: number;
  /** Nesting levels allowed below a message's `result`, `params` or `error` (default 64). */
  maxDepth?: number;
}

/** 32 MiB: what the official SDKs and mcpkit's server send at most. */
export const DEFAULT_CLIENT_MAX_RESPONSE_BYTES = 33_554_432;
export const DEFAULT_CLIENT_MAX_RECONNECTS = 3;
/** The reconnection delay when the server sent no `retry:` (the SSE default, roughly). */
export const DEFAULT_RECONNECT_DELAY_MS = 1000;
/** A server's `retry:` is honoured up to this (a larger one would stall the request). */
export const MAX_RECONNECT_DELAY_MS = 30_000;
/** The most bytes of a non-JSON error body read for a message. */
export const ERROR_BODY_BYTES = 64 * 1024;
/** How long `close()` waits for the DELETE of a session. */
export const DELETE_TIMEOUT_MS = 5000;
/** The most redirects one request follows when `allowRedirects` is set. */
export const MAX_REDIRECTS = 5;

/** The options with their defaults, checked once. */
export interface ResolvedClientOptions {
  url: URL;
  fetch: typeof globalThis.fetch;
  headers: Record<string, string>;
  allowRedirects: boolean;
  maxResponseBytes: number;
  maxReconnects: number;
  maxDepth: number;
}

export function resolveClientOptions(options: HttpClientOptions): ResolvedClientOptions {
  const url = new URL(options.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`http client: url must be http: or https:, got ${url.protocol}`);
  }
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') {
    throw new TypeError('http client: no fetch in this runtime; pass options.fetch');
  }
  return {
    url,
    fetch: fetchFn,
    headers: { ...options.headers },
    allowRedirects: options.allowRedirects ?? false,
    maxResponseBytes: positive(
      'maxResponseBytes',
      options.maxResponseBytes,
      DEFAULT_CLIENT_MAX_RESPONSE_BYTES,
    ),
    maxReconnects: atLeastZero(
      'maxReconnects',
      options.maxReconnects,
      DEFAULT_CLIENT_MAX_RECONNECTS,
    ),
    maxDepth: positive('maxDepth', options.maxDepth, DEFAULT_MAX_DEPTH),
  };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`http client: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function atLeastZero(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`http client: ${name} must be an integer >= 0, got ${String(value)}`);
  }
  return value;
}
