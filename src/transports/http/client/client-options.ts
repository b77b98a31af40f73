import { DEFAULT_MAX_DEPTH } from '../../../protocol/depth.js';
import { integerOption } from '../../integer-option.js';
import type { HttpClientAuth } from '../../../auth/client-hook.js';
import { FetchRequester, type HttpRequester } from './client-requester.js';
import { NodeRequester, nodeModules } from './node-requester.js';

/**
 * How the transport makes its HTTP requests: `'fetch'` (web fetch), `'node'` (`node:http` and
 * `node:https` with a keep-alive agent per transport; Node.js >= 20.16 only) or `'auto'`.
 */
export type HttpRequesterChoice = 'auto' | 'fetch' | 'node';

/** Options of `HttpClientTransport`. */
export interface HttpClientOptions {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string | URL;
  /**
   * The fetch to use: a proxy agent, a test double, a web handler. Given, every request goes
   * through it (`requester` must then be `'auto'` or `'fetch'`).
   */
  fetch?: typeof globalThis.fetch;
  /**
   * How requests are made (default `'auto'`). `'auto'` takes `node:http`/`node:https` with a
   * keep-alive agent on Node.js >= 20.16 when no `fetch` is given (the same requests and
   * behaviour at a fraction of fetch's CPU per request), and `globalThis.fetch` anywhere else
   * (browsers, workers, Deno, Bun, older Node). `'fetch'` forces fetch: pick it when something
   * must see the requests at fetch's level (undici's `setGlobalDispatcher` proxy or
   * `MockAgent`, a fetch-patching mock). `'node'` forces the Node path (a TypeError where
   * there is none). The Node path sends no `Accept-Encoding` of its own, and decodes a gzip,
   * deflate or br body as fetch does.
   */
  requester?: HttpRequesterChoice;
  /** Headers sent on every request, e.g. `authorization`; never sent to another origin. */
  headers?: Record<string, string>;
  /**
   * Signs requests and answers 401/403 challenges: an `OAuthClient` from `mcpkit/auth/client`
   * (discovery, registration, PKCE sign-in, refresh, step-up), or your own. Its header replaces
   * an `authorization` in `headers`.
   */
  auth?: HttpClientAuth;
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
  /**
   * The most connections open at once to the server's origin (default 16): requests past it
   * wait for one to be free (their timeout still runs). Bounds what a server can make the
   * client open, e.g. one POST per reply to a flood of 2025-11-25 server requests. Over `fetch`
   * it bounds requests at once; the fetch's own pool decides the connections under them.
   */
  maxSocketsPerOrigin?: number;
}

/** 32 MiB: what the official SDKs and mcpkit's server send at most. */
export const DEFAULT_CLIENT_MAX_RESPONSE_BYTES = 33_554_432;
export const DEFAULT_CLIENT_MAX_RECONNECTS = 3;
/** Connections open at once to the server's origin, at most (HTTP/1.1 browsers allow 6). */
export const DEFAULT_MAX_SOCKETS_PER_ORIGIN = 16;
/** The reconnection delay when the server sent no `retry:` (the SSE default, roughly). */
export const DEFAULT_RECONNECT_DELAY_MS = 1000;
/** A server's `retry:` is honoured up to this (a larger one would stall the request). */
export const MAX_RECONNECT_DELAY_MS = 30_000;
/**
 * And from this: a `retry: 0` stream that closes after each new event id would otherwise be
 * reopened in a tight loop, as fast as the server answers (progress resets the miss count).
 */
export const MIN_RECONNECT_DELAY_MS = 100;
/** The most bytes of a non-JSON error body read for a message. */
export const ERROR_BODY_BYTES = 64 * 1024;
/**
 * The longest `openServerStream` waits for the server to answer the GET stream (less when the
 * core's request timeout is shorter); past it the connection goes on, the GET still pending.
 */
export const SERVER_STREAM_WAIT_MS = 10_000;
/** How long `close()` waits for the DELETE of a session. */
export const DELETE_TIMEOUT_MS = 5000;
/** The most redirects one request follows when `allowRedirects` is set. */
export const MAX_REDIRECTS = 5;

/** The options with their defaults, checked once. */
export interface ResolvedClientOptions {
  url: URL;
  requester: HttpRequester;
  /** The extra headers, names in lowercase. */
  headers: Record<string, string>;
  auth: HttpClientAuth | undefined;
  allowRedirects: boolean;
  maxResponseBytes: number;
  maxReconnects: number;
  maxDepth: number;
  maxSocketsPerOrigin: number;
}

export function resolveClientOptions(options: HttpClientOptions): ResolvedClientOptions {
  const url = new URL(options.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`http client: url must be http: or https:, got ${url.protocol}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  const maxSockets = positive(
    'maxSocketsPerOrigin',
    options.maxSocketsPerOrigin,
    DEFAULT_MAX_SOCKETS_PER_ORIGIN,
  );
  return {
    url,
    requester: requesterFor(options, maxSockets),
    headers,
    auth: options.auth,
    allowRedirects: options.allowRedirects ?? false,
    maxResponseBytes: positive(
      'maxResponseBytes',
      options.maxResponseBytes,
      DEFAULT_CLIENT_MAX_RESPONSE_BYTES,
    ),
    maxReconnects: integerOption(
      'http client',
      'maxReconnects',
      options.maxReconnects,
      DEFAULT_CLIENT_MAX_RECONNECTS,
      0,
      'an integer >= 0',
    ),
    maxDepth: positive('maxDepth', options.maxDepth, DEFAULT_MAX_DEPTH),
    maxSocketsPerOrigin: maxSockets,
  };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  return integerOption('http client', name, value, fallback);
}

function requesterFor(options: HttpClientOptions, maxSockets: number): HttpRequester {
  const choice = options.requester ?? 'auto';
  if (choice !== 'auto' && choice !== 'fetch' && choice !== 'node') {
    throw new TypeError(
      `http client: requester must be 'auto', 'fetch' or 'node', got ${String(choice)}`,
    );
  }
  if (choice === 'node') {
    if (options.fetch !== undefined) {
      throw new TypeError("http client: requester 'node' does not use options.fetch; drop one");
    }
    const modules = nodeModules();
    if (!modules) {
      throw new TypeError("http client: requester 'node' needs Node.js >= 20.16; use 'fetch'");
    }
    return new NodeRequester(modules, { maxSockets });
  }
  if (choice === 'auto' && options.fetch === undefined) {
    const modules = nodeModules();
    if (modules) return new NodeRequester(modules, { maxSockets });
  }
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') {
    throw new TypeError('http client: no fetch in this runtime; pass options.fetch');
  }
  return new FetchRequester(fetchFn, { maxSockets });
}
