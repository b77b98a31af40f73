/** How a server is configured: identity, paging, cache hints, secrets and content handling. */
import type { DecisionRecord } from '../content/assemble.js';
import type { Policy } from '../content/policy.js';
import type { CacheScope, Implementation } from '../protocol/types.js';
import type { LinkStore } from './link-store.js';
import type { ChangeBus } from './change-bus.js';

/** Cache hints for cacheable results (SEP-2549). */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: CacheScope;
}

/** The server's identity (`serverInfo`: name, version, title, …) plus how it serves. */
export interface ServerOptions extends Implementation {
  instructions?: string;
  /** Page size of the four list methods (default 100). */
  pageSize?: number;
  /** Cache hints for discover and the list methods (default ttlMs 0, cacheScope 'public'). */
  cache?: CacheHints;
  /** Default cache hints of `resources/read` (default ttlMs 0, cacheScope 'private'). */
  readCache?: CacheHints;
  /** HMAC secret for `requestState`; set it when several instances serve one client. Default: random per process. */
  requestStateSecret?: string | Uint8Array;
  /** Lifetime of an MRTR `requestState` (default 10 minutes). */
  requestStateTtlMs?: number;
  /** Extra capabilities to advertise, merged over the fixed set every server advertises. */
  capabilities?: Record<string, unknown>;
  /** Where ephemeral artifacts are kept for links (default: in memory, 1 hour). */
  linkStore?: LinkStore;
  /**
   * Registers `read_resource` (uri, optional offset/length in bytes) and `list_resources`
   * (cursor, query) over this server's own resources, for hosts whose model sees only tools
   * (they never read a resource_link themselves). Reads go through `resources/read` with the
   * caller's authorization. Default false.
   */
  readableLinks?: boolean;
  /**
   * Where change events travel (`notifyResourceUpdated`, `notifyListChanged`): memory by default,
   * a shared bus (`mcpkit/redis`) so that listeners on every instance hear of every change.
   */
  bus?: ChangeBus;
  /**
   * With a shared bus: how often (ms) this instance tells the others again which URIs its
   * listeners name (default 5,000; 10 to 86,400,000). Another instance counts a URI as listened
   * to here for three of these after the last word, so an instance that died stops counting.
   */
  interestRefreshMs?: number;
  /**
   * With a shared bus: most (instance, URI) pairs kept of what other instances listen to, and
   * most URIs this one announces (default 65,536). Beyond it the rest is ignored, with one
   * warning: a provider then watches those only for listeners here.
   */
  maxRemoteInterest?: number;
  /** The embed-vs-link policy and the link guarantee. */
  content?: ContentOptions;
  /**
   * Most bytes one `subscriptions/listen` stream may queue for a client that stopped reading
   * (default 4 MiB): the frames held while its transport is congested (one per URI or list, not
   * per change) plus what the transport buffered. Past it the stream ends with an error (-32603,
   * `data.reason: 'fell-behind'`) and a warning, so the client listens again and re-reads. A server option, not a transport one: the listen engine holds the queue for every
   * transport that reports backpressure (HTTP, stdio).
   */
  maxListenQueueBytes?: number;
  /**
   * Most bytes all `subscriptions/listen` streams of this server may queue together for clients
   * that stopped reading (default 16 MiB), counted as `maxListenQueueBytes` counts one stream's.
   * Past it the stream that holds the most is ended as `maxListenQueueBytes` ends one (-32603,
   * `data.reason: 'fell-behind'`, and a warning), then the next, until the total is under it
   * again: many slow clients cannot add up to more memory than this, and a client that reads
   * (holding little) is the last one cut.
   */
  maxListenQueueTotalBytes?: number;
  /**
   * Most distinct resource URIs one `subscriptions/listen` stream holds as "updated, not yet
   * written" while its client is not reading (default 1,024). Each URI is held once however often
   * it changes (level-triggered: the client re-reads it anyway); one more distinct URI ends the
   * stream as `maxListenQueueBytes` does (-32603, `data.reason: 'fell-behind'`), so the client
   * listens again and re-reads.
   */
  maxListenPendingUris?: number;
  /**
   * Most `subscriptions/listen` streams open at once on this server (one process runs one,
   * usually), over every connection and transport (default 10,000). One more is refused before
   * its acknowledgement: -32603 with `data.reason: 'too-many-listens'` and `data.maxListens`.
   */
  maxListens?: number;
  /**
   * Most URIs one listen's `notifications.resourceSubscriptions` may name, and most URIs one
   * 2025-11-25 session may `resources/subscribe` to (default 1,024). More is -32602 naming the
   * field and the limit. Subscribing to a URI covers its sub-resources: subscribe to a folder.
   */
  maxListenUris?: number;
  /**
   * Most bytes of encoded `resources/read` answers this server keeps (default 32 MiB; 0 keeps
   * none): a read handler that names the version it served (`versionedRead`) has its whole
   * answer encoded once per version, URI and era, and the next read of that version is written
   * from it (the handler still runs). Least recently used answers go first; an answer over
   * half of it is encoded for its request only. A value that is not a whole number of bytes
   * fails `createServer` with a RangeError naming it.
   */
  maxEncodedReadBytes?: number;
  /**
   * Outbound, over all connections: the most bytes of answers being produced or waiting to be
   * written (default 64 MiB). An answer a transport holds in memory counts until it is written
   * (a streamed part or blob: its window, 128 KiB). A handler reserves before it produces a
   * large answer (`ctx.answer.reserve`): the folder provider's part reads hold their length
   * while they are read and cut; when the budget is short such a part is cut to the room there
   * is (never below 2 MiB) or waits for room, at most 5 s, then gets -32603 with `data.reason:
   * 'busy'` naming this option. Other answers never wait. A value that is not a positive whole
   * number of bytes fails `createServer` with a RangeError naming it.
   */
  maxResponseTotalBytes?: number;
  /** Called with warnings such as unresolved links under linkCheck 'warn' (default: console.warn). */
  onWarning?: (message: string) => void;
  /**
   * Deepest nesting of objects and arrays a request's `params` may have (default 64): an object
   * or array directly in `params` is level 1 (`_meta`, `arguments`), one inside it level 2, and
   * so on; scalars add no level (`_meta.clientCapabilities.experimental` is level 3). Deeper
   * requests are answered -32602 (`data.reason: 'too-deep'`, HTTP 400) before anything recursive
   * (schema validation, handlers) sees them; a client's response, below its `result`, likewise.
   */
  maxDepth?: number;
  /** Called with errors thrown by handlers (default: console.error with the method). */
  onError?: (error: unknown, method: string) => void;
}

/** How results embed or link resources, and how strictly links are checked. */
export interface ContentOptions {
  /** Soft cap for one embedded block on the wire (default 1 MiB). */
  blockBudgetBytes?: number;
  /** Soft cap for all blocks of one result on the wire (default 4 MiB). */
  resultBudgetBytes?: number;
  /** Hard cap for one result; default: the transport's message cap less 1 KiB of envelope. */
  capBytes?: number;
  /** Whether clients follow links with resources/read (default true). */
  clientCanReadResources?: boolean;
  /** Replaces the default embed-vs-link policy. */
  policy?: Policy;
  /** What to do when a result links to a URI nothing serves (default 'error'). */
  linkCheck?: 'error' | 'warn' | 'off';
  /** Adds each decision to the result's `_meta["dev.mcpkit/decisions"]` (default false). */
  explain?: boolean;
  /** Sees every embed-or-link decision with its reason (default: none). */
  onDecision?: (record: DecisionRecord, method: string) => void;
  /** Lifetime of artifacts put in the link store by results (default: the store's). */
  artifactTtlMs?: number;
}

/** Room kept for the JSON-RPC envelope, `_meta` and the result's other fields under a transport's cap. */
export const ENVELOPE_RESERVE_BYTES = 1024;

/** The cap a transport without one of its own implies (32 MiB), before the envelope reserve. */
export const DEFAULT_TRANSPORT_CAP_BYTES = 32 * 1024 * 1024;

/** The page size of the list methods (`pageSize`, default 100); throws naming it when unusable. */
export function pageSizeOf(options: Pick<ServerOptions, 'pageSize'>): number {
  const size = options.pageSize ?? 100;
  if (!Number.isSafeInteger(size) || size < 1)
    throw new RangeError(`pageSize must be a positive integer, got ${String(size)}`);
  return size;
}

/** What a listen stream may queue for a client that is not reading (`maxListenQueueBytes`). */
export const DEFAULT_MAX_LISTEN_QUEUE_BYTES = 4 * 1024 * 1024;

/** What all listen streams together may queue for clients that are not reading (`maxListenQueueTotalBytes`). */
export const DEFAULT_MAX_LISTEN_QUEUE_TOTAL_BYTES = 16 * 1024 * 1024;

/** Distinct updated URIs a listen stream holds for a client that is not reading. */
export const DEFAULT_MAX_LISTEN_PENDING_URIS = 1024;

/** Listen streams open at once in one process. */
export const DEFAULT_MAX_LISTENS = 10_000;

/** URIs one listen (or one legacy session) may subscribe to. */
export const DEFAULT_MAX_LISTEN_URIS = 1024;

/** The bounds of listen streams and legacy subscriptions, resolved and checked. */
export interface ListenLimits {
  maxListenQueueBytes: number;
  maxListenQueueTotalBytes: number;
  maxListenPendingUris: number;
  maxListens: number;
  maxListenUris: number;
}

/**
 * The listen bounds of `options` with their defaults; throws a RangeError naming the option for
 * a value that is not a positive integer (checked once, when the server is built).
 */
export function listenLimitsOf(options: Partial<ListenLimits> = {}): ListenLimits {
  const limits: ListenLimits = {
    maxListenQueueBytes: DEFAULT_MAX_LISTEN_QUEUE_BYTES,
    maxListenQueueTotalBytes: DEFAULT_MAX_LISTEN_QUEUE_TOTAL_BYTES,
    maxListenPendingUris: DEFAULT_MAX_LISTEN_PENDING_URIS,
    maxListens: DEFAULT_MAX_LISTENS,
    maxListenUris: DEFAULT_MAX_LISTEN_URIS,
  };
  for (const name of Object.keys(limits) as Array<keyof ListenLimits>) {
    const value = options[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
    limits[name] = value;
  }
  return limits;
}

/** How often an instance refreshes its interest on a shared bus (`interestRefreshMs`). */
export const DEFAULT_INTEREST_REFRESH_MS = 5000;

/** Longest `interestRefreshMs` (a day); the shortest is 10 ms. */
export const MAX_INTEREST_REFRESH_MS = 86_400_000;

/** Remote (instance, URI) interest entries kept (`maxRemoteInterest`). */
export const DEFAULT_MAX_REMOTE_INTEREST = 65_536;

/** The interest options, resolved and checked. */
export interface InterestLimits {
  interestRefreshMs: number;
  maxRemoteInterest: number;
}

/**
 * The interest options of `options` with their defaults; throws a RangeError naming the option
 * for a value out of range (checked once, when the server is built, shared bus or not).
 */
export function interestLimitsOf(options: Partial<InterestLimits> = {}): InterestLimits {
  const { interestRefreshMs: every = DEFAULT_INTEREST_REFRESH_MS } = options;
  if (!Number.isSafeInteger(every) || every < 10 || every > MAX_INTEREST_REFRESH_MS)
    throw new RangeError(
      `interestRefreshMs must be an integer from 10 to ${MAX_INTEREST_REFRESH_MS}, got ${String(every)}`,
    );
  const { maxRemoteInterest: max = DEFAULT_MAX_REMOTE_INTEREST } = options;
  if (!Number.isSafeInteger(max) || max < 1)
    throw new RangeError(`maxRemoteInterest must be a positive integer, got ${String(max)}`);
  return { interestRefreshMs: every, maxRemoteInterest: max };
}

/**
 * The hard cap for one result: `content.capBytes`, else the transport's cap less the envelope;
 * never more than what the client `announced` it takes (less the envelope).
 */
export function resultCapBytes(
  options: ServerOptions,
  transportCap: number | undefined,
  announced?: number,
): number {
  const own =
    options.content?.capBytes ??
    (transportCap ?? DEFAULT_TRANSPORT_CAP_BYTES) - ENVELOPE_RESERVE_BYTES;
  return announced === undefined ? own : Math.min(own, announced - ENVELOPE_RESERVE_BYTES);
}
