/** What an application tells `McpClient`, and the defaults it gets otherwise. */
import type { ClientCapabilities, Era, Implementation } from '../protocol/index.js';
import type { ClientTransport } from './transport.js';
import type { InputHandlers } from './input-handlers.js';
import { ClientCache } from './cache.js';
import type { Progress } from './connection.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** How long a stdio `server/discover` probe may go unanswered before `initialize` is tried. */
export const DEFAULT_DISCOVER_TIMEOUT_MS = 5_000;
/** Pages a list may take before the client decides the server's cursor never ends. */
export const DEFAULT_MAX_PAGES = 1_000;
/** Entries one list may gather over all its pages (an iterator, or `listTools()` and friends). */
export const DEFAULT_MAX_LIST_ITEMS = 50_000;
/** UTF-8 bytes (as JSON) of the entries one list may gather over all its pages: 64 MiB. */
export const DEFAULT_MAX_LIST_BYTES = 64 * 1024 * 1024;
/** The largest `nextCursor` the client follows: 64 KiB. */
export const DEFAULT_MAX_CURSOR_BYTES = 64 * 1024;
export const DEFAULT_CACHE_ENTRIES = 500;
/** Rounds of `input_required` a single request may go through. */
export const DEFAULT_MAX_INPUT_ROUNDS = 16;
/** Input requests one `input_required` round may carry (each runs a handler: a prompt, a model call). */
export const DEFAULT_MAX_INPUT_REQUESTS = 16;
export const MAX_WARNINGS_KEPT = 200;

export interface ClientWarning {
  /** A stable code, e.g. `REPAIRED_RESULT`, `DROPPED_TOOL`, `DROPPED_ICON`, `INVALID_MESSAGE`. */
  code: string;
  message: string;
}

export interface CacheOptions {
  /** A cache to share with other clients of the same server (one per origin, say). */
  store?: ClientCache;
  /** Entries kept at most (oldest dropped first); default 500. */
  maxEntries?: number;
  /**
   * Who the client acts for (a user or token id). `private` entries are kept per credential and
   * never served to another one; default: the client instance itself.
   */
  credential?: string;
}

export interface McpClientOptions {
  transport: ClientTransport;
  clientInfo?: Implementation;
  /** Pin the era instead of probing: `modern` (2026-07-28) or `legacy` (2025-11-25 initialize). */
  era?: 'auto' | Era;
  /** Capabilities to declare; default: derived from `handlers`. */
  capabilities?: ClientCapabilities;
  /** Answers the server's input requests (MRTR) and 2025-11-25 server-to-client requests. */
  handlers?: InputHandlers;
  /** Per-request timeout; default 60 s. `0` disables it. */
  requestTimeoutMs?: number;
  /** Budget of a stdio `server/discover` probe before falling back to `initialize`; default 5 s. */
  discoverTimeoutMs?: number;
  /** Page limit of list iterators; default 1000. */
  maxPages?: number;
  /**
   * Entries one list may gather over all its pages; past it the iterator and `listTools()` and
   * friends reject with `LIST_TOO_LARGE`. Default 50,000.
   */
  maxListItems?: number;
  /** UTF-8 bytes (as JSON) of those entries together; past it `LIST_TOO_LARGE`. Default 64 MiB. */
  maxListBytes?: number;
  /** The largest `nextCursor` followed; a larger one is `LIST_TOO_LARGE`. Default 64 KiB. */
  maxCursorBytes?: number;
  /** Rounds of `input_required` per request; default 16. */
  maxInputRounds?: number;
  /** Input requests one `input_required` round may carry; past it INVALID_RESULT. Default 16. */
  maxInputRequests?: number;
  /** Cache for discover, the four lists and `resources/read`; `false` turns it off. */
  cache?: false | CacheOptions;
  /** Called for every warning (repairs, dropped tools or icons); they are also kept on `warnings`. */
  onWarning?: (warning: ClientWarning) => void;
  /** Every notification no request or listen stream claimed (logs, 2025-11-25 changes). */
  onNotification?: (notification: { method: string; params?: Record<string, unknown> }) => void;
}

/** Per-request options of every `McpClient` method. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides `requestTimeoutMs` for this request; 0 disables the timeout. */
  timeoutMs?: number;
  onProgress?: (progress: Progress) => void;
  /** Extra `_meta` keys for this request. */
  meta?: Record<string, unknown>;
  /** `false`: skip the cache for this request (and do not store its answer). */
  cache?: boolean;
  /**
   * Sees each answer's `result` exactly as the server sent it, before any repair or check (an
   * auditor's view; it must not modify it). Called once per answer, input rounds included.
   */
  onRawResult?: (result: unknown) => void;
  /**
   * The most bytes the answer may take on the wire (a positive integer), below the transport's
   * own cap: reading stops there and the request fails with RESPONSE_TOO_LARGE. Over stdio the
   * rest of a line cannot be skipped, so the connection is ended (every request in flight fails,
   * saying why). The host's resolver sets it from `maxLinkBytes`.
   */
  maxResponseBytes?: number;
  /**
   * `'return'`: a 2026-07-28 `input_required` result is returned as it came instead of being
   * answered through the handlers (a proxy passes it on to its own client, which retries).
   */
  inputRequired?: 'answer' | 'return';
  /** 2026-07-28: the capabilities this request declares instead of the client's (a proxy's client's). */
  clientCapabilities?: Record<string, unknown>;
}

/** The limits of `McpClientOptions` that must be positive integers when given. */
const POSITIVE_LIMITS = [
  'maxListItems',
  'maxListBytes',
  'maxCursorBytes',
  'maxInputRounds',
  'maxInputRequests',
] as const;

/** Throws a RangeError naming the first limit of `options` that is not a positive integer. */
export function checkClientLimits(options: McpClientOptions): void {
  for (const name of POSITIVE_LIMITS) {
    const value = options[name];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1))
      throw new RangeError(`McpClient: ${name} must be a positive integer, got ${String(value)}`);
  }
}

/**
 * The credential private cache entries belong to (without one, this instance alone: the
 * documented default) and the cache of `cache` (undefined: off).
 */
export function clientCacheOf(cache: McpClientOptions['cache']): [string, ClientCache | undefined] {
  const credential = (cache ? cache.credential : undefined) ?? `self:${crypto.randomUUID()}`;
  if (cache === false) return [credential, undefined];
  return [credential, cache?.store ?? new ClientCache(cache?.maxEntries ?? DEFAULT_CACHE_ENTRIES)];
}
