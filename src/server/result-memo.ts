/**
 * Results of tools and prompts that depend only on their arguments and a generation counter of
 * their source (`memo` in their definition): the whole answer is kept encoded for a short while
 * and served again, without running the handler, to a request that asks the same thing of the
 * same generation in the same setting (era, client capabilities, cap, caller). Bounded in entries
 * and per entry; a new generation, or the lifetime running out, makes it build the result anew.
 */
import { SHARED_BODY_MIN_BYTES } from '../content/shared-bodies.js';
import { holdsAtLeast, withPreEncoded } from '../protocol/pre-encoded.js';
import type { RequestContext } from './context.js';
import { canonicalJson } from './request-state.js';

/** `memo` of a tool or prompt definition. */
export interface MemoOptions {
  /**
   * The generation of what the result depends on besides the arguments: any value that changes
   * whenever the result could (a counter bumped on every change of the source). Undefined: the
   * source cannot tell now (not watched), and the result is built every time.
   */
  generation(): string | number | undefined;
  /** How long one result is served again at most (default 30 s; links in it must resolve that long). */
  ttlMs?: number;
}

export const DEFAULT_MEMO_TTL_MS = 30_000;
/** Results kept at most, over every memoised tool and prompt of a server. */
export const MAX_MEMO_ENTRIES = 1024;

/** Longest key kept (arguments, capabilities and caller included): bounds what a client can grow. */
export const MAX_MEMO_KEY_CHARS = 4096;

const MEMO_KEY = Symbol('mcpkit.memoKey');

const registrations = new WeakMap<object, number>();
let nextRegistration = 0;

function registrationOf(entry: object): number {
  let n = registrations.get(entry);
  if (n === undefined) registrations.set(entry, (n = nextRegistration++));
  return n;
}

interface Entry {
  readonly result: Record<string, unknown>;
  readonly expiresAt: number;
}

/** A memo key and the generation it was taken at. */
export interface MemoKey {
  readonly key: string;
  readonly generation: string | number;
  readonly memo: MemoOptions;
}

interface Tag extends MemoKey {
  readonly ttlMs: number;
}

export class ResultMemo {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The key of this request, or undefined when it must be built (no generation now). */
  keyOf(
    memo: MemoOptions | undefined,
    entry: object,
    what: string,
    params: Record<string, unknown>,
    ctx: RequestContext,
  ): MemoKey | undefined {
    // A round that answers input is not the arguments' alone.
    if (!memo || params['inputResponses'] !== undefined || params['requestState'] !== undefined)
      return undefined;
    const args = params['arguments'];
    const generation = memo.generation();
    if (generation === undefined) return undefined;
    const key = [
      // The registration itself: a tool registered again under the same name starts afresh.
      registrationOf(entry),
      what,
      ctx.era,
      ctx.protocolVersion,
      ctx.capBytes,
      canonicalJson(ctx.clientCapabilities),
      canonicalJson(ctx.authInfo ?? null, 'mark'),
      canonicalJson(args ?? {}),
      String(generation),
    ].join('\n');
    // Keys are client text (arguments, capabilities): a long one is not kept at all.
    return key.length > MAX_MEMO_KEY_CHARS ? undefined : { key, generation, memo };
  }

  /** The kept answer for `key`, if it is still good. */
  get(key: string): Record<string, unknown> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.result;
  }

  /** Tags a freshly built result with its key, for {@link keep} once it has its envelope. */
  static tag<T extends object>(result: T, key: MemoKey, ttlMs: number, ctx: RequestContext): T {
    // A handler that asked for input made a result that depends on the answers too; one may
    // also say its result is not to be kept (ctx.keepable = false: cut short by time, say).
    if (ctx.asked || !ctx.keepable) return result;
    const tag: Tag = { ...key, ttlMs };
    Object.defineProperty(result, MEMO_KEY, { value: tag, configurable: true });
    return result;
  }

  static tagOf(result: object): Tag | undefined {
    return (result as { [MEMO_KEY]?: Tag })[MEMO_KEY];
  }

  /**
   * For a result {@link keep} just kept: whether it is still what the memo would serve (same
   * generation, lifetime not over), told without running anything but `generation()`.
   */
  freshness(result: Record<string, unknown>): (() => boolean) | undefined {
    const tag = ResultMemo.tagOf(result);
    const entry = tag && this.entries.get(tag.key);
    if (!tag || entry?.result !== result) return undefined;
    const { memo, generation } = tag;
    return () => entry.expiresAt > this.now() && memo.generation() === generation;
  }

  /** Keeps the final, enveloped `result` encoded under its tag; a large one is not kept. */
  keep(result: Record<string, unknown>): Record<string, unknown> {
    const tag = ResultMemo.tagOf(result);
    if (!tag || holdsAtLeast(result, SHARED_BODY_MIN_BYTES)) return result;
    const json = JSON.stringify(result);
    if (this.entries.size >= MAX_MEMO_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const encoded = withPreEncoded(result, json);
    this.entries.set(tag.key, { result: encoded, expiresAt: this.now() + tag.ttlMs });
    return encoded;
  }
}

const memos = new WeakMap<object, ResultMemo>();

/** The memo of one server (by its core). */
export function memoOf(core: object): ResultMemo {
  let memo = memos.get(core);
  if (!memo) memos.set(core, (memo = new ResultMemo()));
  return memo;
}
