/**
 * Answers given again by exact request: a 2026-07-28 request whose answer was encoded once (a
 * versioned read, a memoised tool or prompt) and that can tell without I/O whether it is still
 * good is answered from memory when the same request comes again, before any parsing of its
 * envelope, validation or handler: the same setting (transport headers, session or not), the
 * same method and params (byte for byte once serialised), only another id. Validation and
 * handlers would reach the same outcome for the same request, so skipping them changes nothing
 * the client can see, as long as the answer is fresh (`fresh()`), the server's registrations are
 * the same arrays, and the request carries no caller identity (authInfo): such requests always
 * take the full path.
 */
import type { JSONRPCResponse, RequestId } from '../protocol/jsonrpc.js';
import { preEncodedSize } from '../protocol/pre-encoded.js';
import type { ServerCore } from './core.js';
import { ReplayBudget } from './replay-budget.js';

/** Methods whose answers may be kept: any other request costs nothing here. */
const KEPT_METHODS = new Set(['resources/read', 'prompts/get', 'tools/call']);

/** Longest key kept (params as JSON, and the setting): bounds what a client can grow. */
export const MAX_REPLAY_KEY_CHARS = 4096;
/** Answers kept at most per connection (the stateless HTTP endpoint is one connection). */
export const MAX_REPLAY_ENTRIES = 1024;
/** Characters of encoded answers kept at most per connection (~16 MiB of ASCII). */
export const MAX_REPLAY_CHARS = 16 * 1024 * 1024;

/** The registrations an answer was built under: the same arrays until one changes. */
export type Stamp = readonly [unknown, unknown, unknown, unknown];

export function stampOf(core: ServerCore): Stamp {
  return [core.tools.list(), core.prompts.list(), core.resources.list(), core.templates.list()];
}

/** Whether the server's registrations are still those of `stamp`. */
export function stampHolds(stamp: Stamp, core: ServerCore): boolean {
  return (
    stamp[0] === core.tools.list() &&
    stamp[1] === core.prompts.list() &&
    stamp[2] === core.resources.list() &&
    stamp[3] === core.templates.list()
  );
}

/** A request that may be replayed: its key, and the registrations it started under. */
export interface ReplayTicket {
  readonly key: string;
  readonly stamp: Stamp;
}

/**
 * `fresh`, and the server's registrations still those of `stamp` (taken before the handler ran).
 * Made here, not where the request is handled: a closure made there would share that scope, and
 * keep the whole request (its exchange, its socket's objects) alive as long as the answer is kept.
 */
export function freshUnder(core: ServerCore, stamp: Stamp, fresh: () => boolean): () => boolean {
  return () => stampHolds(stamp, core) && fresh();
}

/** {@link freshUnder} for a read's validity. */
export function validUnder(core: ServerCore, stamp: Stamp, validity: { readonly valid: boolean }) {
  return (): boolean => stampHolds(stamp, core) && validity.valid;
}

interface Entry {
  readonly result: Record<string, unknown>;
  readonly chars: number;
  readonly fresh: () => boolean;
}

/** A parsed request of the plain shape `{ jsonrpc, id, method, params }` and nothing else. */
export interface PlainRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
}

/** `raw` as a plain request whose method may be kept, else undefined (never throws). */
export function plainRequest(raw: unknown): PlainRequest | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const m = raw as Record<string, unknown>;
  const method = m['method'];
  if (typeof method !== 'string' || !KEPT_METHODS.has(method) || m['jsonrpc'] !== '2.0')
    return undefined;
  const id = m['id'];
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id)))
    return undefined;
  const params = m['params'];
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  let keys = 0;
  for (const k in m) if (Object.hasOwn(m, k)) keys++;
  return keys === 4 ? (m as unknown as PlainRequest) : undefined;
}

/** How most clients start a request: its id is cut from there without parsing the text. */
const TEXT_HEAD = '{"jsonrpc":"2.0","id":';
/**
 * An "id" member anywhere in the rest, or an escape that could spell one (`"\u0069d"`): such a
 * text gets no key (JSON.parse would take the last "id", which the head does not show).
 */
const ID_MEMBER = /"id"\s*:|\\u/;

/**
 * The id and the rest of a request text `{"jsonrpc":"2.0","id":ID,REST`, where ID is a JSON
 * integer (a safe one, as JSON writes it) or a string of printable ASCII without escapes; else
 * undefined. Nothing else is parsed: the rest is compared as it is.
 */
export function splitRequestText(text: string): { id: RequestId; rest: string } | undefined {
  if (!text.startsWith(TEXT_HEAD)) return undefined;
  const from = TEXT_HEAD.length;
  let at = from;
  let id: RequestId;
  if (text.charCodeAt(at) === 34 /* " */) {
    at++;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 34) break;
      if (!(c >= 0x20 && c < 0x7f) || c === 92 /* \ */) return undefined;
      at++;
    }
    id = text.slice(from + 1, at);
    at++;
  } else {
    if (text.charCodeAt(at) === 45 /* - */) at++;
    const digits = at;
    while (at < text.length && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++;
    const n = at - digits;
    // JSON's own form: no leading zero; at most 15 digits is always a safe integer.
    if (n === 0 || n > 15 || (n > 1 && text.charCodeAt(digits) === 48)) return undefined;
    id = Number(text.slice(from, at));
    if (Object.is(id, -0)) return undefined;
  }
  if (text.charCodeAt(at) !== 44 /* , */) return undefined;
  return { id, rest: text.slice(at + 1) };
}

/**
 * The kept answers of one connection, within its own bounds and the server's `budget`, which
 * counts its answers and every key it holds (also those of `unshared` and expired answers).
 */
export class ReplayLane {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;
  private closed = false;
  /** Requests with a key running now, by key: the same request arriving meanwhile waits for it. */
  readonly flights = new Map<string, Promise<JSONRPCResponse | undefined>>();
  /** Keys whose answer was not one to share: their requests run side by side (bounded). */
  private readonly unshared: KeySet;
  /** Keys whose kept answer went stale and is not rebuilt yet (bounded). */
  private readonly expired: KeySet;
  /** The largest answer (with its key) kept: a sixteenth of the lane, or of a smaller budget. */
  private readonly maxAnswerChars: number;

  constructor(private readonly budget: ReplayBudget = new ReplayBudget()) {
    this.unshared = new KeySet(budget);
    this.expired = new KeySet(budget);
    this.maxAnswerChars = Math.min(MAX_REPLAY_CHARS, budget.limit) / 16;
  }

  /** Whether `key` had a kept answer that went stale since; the caller rebuilds it. */
  takeExpired(key: string): boolean {
    return this.expired.take(key);
  }

  /** Whether requests of `key` got answers not to share (each runs on its own). */
  isUnshared(key: string): boolean {
    return this.unshared.has(key);
  }

  noteUnshared(key: string): void {
    if (!this.closed) this.unshared.add(key);
  }

  /** Keys held besides the answers (unshared, expired), for tests. */
  get keysHeld(): number {
    return this.unshared.size + this.expired.size;
  }

  /** Entries kept now. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The key of `request` in the setting `setting` (the session, and what the transport checks
   * besides the body, such as HTTP headers), or undefined when it is too long to keep. With the
   * request's `text`, a key cut from the text when it has the usual shape (see textKey).
   */
  static keyOf(request: PlainRequest, setting: string, text?: string): string | undefined {
    // A round of an input exchange depends on its state's lifetime and signature: never kept.
    const { params } = request;
    if (params['requestState'] !== undefined || params['inputResponses'] !== undefined)
      return undefined;
    if (text !== undefined) {
      // A transport with the text looks it up by the text alone (peer.replay): a request whose
      // text has not the usual shape gets no key at all, never one it could not be found by.
      const split = splitRequestText(text);
      if (!split || split.id !== request.id || ID_MEMBER.test(split.rest)) return undefined;
      return ReplayLane.textKey(split.rest, setting);
    }
    let json: string;
    try {
      json = JSON.stringify(params);
    } catch {
      return undefined; // cyclic or too deep (an in-memory caller): the full path says why
    }
    if (json.length + setting.length + request.method.length > MAX_REPLAY_KEY_CHARS)
      return undefined;
    // Its own namespace (a text key starts with the setting, never with NUL).
    return `\u0000${setting}\n${request.method}\n${json}`;
  }

  /** The key of a request text's rest (see {@link splitRequestText}) in `setting`. */
  static textKey(rest: string, setting: string): string | undefined {
    return rest.length + setting.length > MAX_REPLAY_KEY_CHARS ? undefined : `${setting}\n${rest}`;
  }

  /** The kept answer for `key` while still fresh. */
  get(key: string): Record<string, unknown> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    let fresh = false;
    try {
      fresh = entry.fresh();
    } catch {
      // A user's generation() or validity that throws: not fresh, the full path reports it.
    }
    if (fresh) return entry.result;
    this.delete(key, entry);
    if (!this.closed) this.expired.add(key);
    return undefined;
  }

  /** Keeps `result` (already encoded) under `key` while `fresh()` says so. */
  set(key: string, result: Record<string, unknown>, fresh: () => boolean): void {
    // Rebuilt, kept or not: no longer an expired one (a read's rebuild never asks takeExpired).
    this.expired.take(key);
    const size = preEncodedSize(result);
    if (size === undefined) return;
    try {
      if (!fresh()) return;
    } catch {
      return;
    }
    const chars = size + key.length;
    if (this.closed || chars > this.maxAnswerChars) return;
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    // Room the other lanes hold is not this lane's to take: nothing of its own is dropped in vain.
    if (!this.budget.fits(chars - this.chars)) return;
    for (const [oldest, entry] of this.entries) {
      if (
        this.entries.size < MAX_REPLAY_ENTRIES &&
        this.chars + chars <= MAX_REPLAY_CHARS &&
        this.budget.fits(chars)
      )
        break;
      this.delete(oldest, entry);
    }
    if (!this.budget.take(chars)) return;
    this.entries.set(key, { result, chars, fresh });
    this.chars += chars;
  }

  /** Drops every kept answer and key, giving their room back to the budget. */
  clear(): void {
    this.budget.give(this.chars);
    this.entries.clear();
    this.chars = 0;
    this.unshared.clear();
    this.expired.clear();
  }

  /** The connection closed: everything is given back, and nothing is kept from now on. */
  close(): void {
    this.closed = true;
    this.clear();
  }

  private delete(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.chars -= entry.chars;
    this.budget.give(entry.chars);
  }
}

/** Keys a lane holds besides its answers, counted against the budget a byte per character. */
class KeySet {
  private readonly keys = new Set<string>();
  private chars = 0;

  constructor(private readonly budget: ReplayBudget) {}

  get size(): number {
    return this.keys.size;
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /**
   * Keeps `key` if there is room, this set's own keys dropped first when that makes room (a key
   * not kept only costs a run that is not shared); never drops them in vain.
   */
  add(key: string): void {
    if (this.keys.has(key)) return;
    const full = this.keys.size >= MAX_REPLAY_ENTRIES || !this.budget.fits(key.length);
    if (full && this.budget.fits(key.length - this.chars)) this.clear();
    if (this.keys.size >= MAX_REPLAY_ENTRIES || !this.budget.take(key.length)) return;
    this.keys.add(key);
    this.chars += key.length;
  }

  /** Whether `key` was here; it is not any more. */
  take(key: string): boolean {
    if (!this.keys.delete(key)) return false;
    this.chars -= key.length;
    this.budget.give(key.length);
    return true;
  }

  clear(): void {
    this.budget.give(this.chars);
    this.chars = 0;
    this.keys.clear();
  }
}
