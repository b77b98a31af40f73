/** Case-insensitive search over file names and text contents of a served folder. */
import { isTextMimeType } from '../../content/mime.js';
import type { FileInfo, FilesystemProvider } from './filesystem-provider.js';
import type { FileContents } from './read-file.js';
import { Pace } from './search-pace.js';
import { escapeRegExp, passageIn, type Passage } from './search-text.js';
import { timerFor } from './read-timeout.js';

export { snippetAround } from './search-text.js';

/**
 * What one search may cost; it stops at the first budget spent and returns what it found, with
 * `stopped` saying which. Defaults: {@link SEARCH_DEFAULTS}.
 */
export interface SearchLimits {
  /** Most files the scan looks at, in path order, name matches first (default 20,000). */
  maxFiles?: number;
  /** Most bytes of file text looked at, read from disk or taken from the cache (default 64 MiB). */
  maxBytes?: number;
  /**
   * Most milliseconds one search takes once the listing is fresh, its wait for a turn included;
   * checked whenever it yields the event loop (every few milliseconds, between files, pieces of
   * a long text and steps of a large read). A read still pending then is left to end alone
   * (default 5,000).
   */
  timeoutMs?: number;
}

export interface SearchOptions extends SearchLimits {
  /** Most hits returned (default 10). */
  limit?: number;
  /**
   * Keep scanning past `limit`, within the same budgets, and return every match found in
   * `matches` (default false: the scan stops once `limit` hits are found).
   */
  collect?: boolean;
  /** Larger text files are matched by name only (default 8 MiB). */
  maxFileBytes?: number;
  signal?: AbortSignal;
  /**
   * Waits for this search's turn to look at file texts (a cap on searches at once): resolves to
   * the function that ends the turn, or to undefined when `deadline` (ms since the epoch) came
   * first; the search then answers its name matches, stopped by `timeoutMs`.
   */
  turn?: (deadline: number, signal?: AbortSignal) => Promise<(() => void) | SearchStop | undefined>;
}

export const SEARCH_DEFAULTS = {
  maxFiles: 20_000,
  maxBytes: 64 * 1024 * 1024,
  timeoutMs: 5_000,
} as const satisfies Required<SearchLimits>;

export interface SearchHit {
  file: FileInfo;
  /** Where the query was found. */
  where: 'name' | 'content' | 'name+content';
  /** A short passage around the first match in the text, whitespace collapsed. */
  snippet?: string;
  /** 1-based line of that match. */
  line?: number;
}

/** A budget of {@link SearchLimits} that ran out, and its value. */
export interface SearchStop {
  /** A budget of the search's own, or `maxWaiting`: too many searches waited for a turn. */
  budget: keyof SearchLimits | 'maxWaiting';
  limit: number;
}

export interface SearchResult {
  /** The first `limit` matches. */
  hits: SearchHit[];
  /**
   * With `collect`: every match found within the budgets, in the same order (`hits` is its
   * start). Complete unless `stopped` says a budget cut the scan short.
   */
  matches?: SearchHit[];
  /** Files the scan looked at (their name, and their text when it is text). */
  scanned: number;
  /** Files served in all. */
  total: number;
  /** Bytes of file text looked at. */
  bytes: number;
  /**
   * More files match than `hits` holds: without `collect` the scan stopped at the limit and more
   * may match; with `collect`, `matches` holds more than `hits`.
   */
  truncated: boolean;
  /**
   * The scan stopped early because a budget ran out: files after the `scanned` first were not
   * looked at (names are all matched; those found are still returned, as name matches).
   */
  stopped?: SearchStop;
}

/** Thrown by a budget check to end the scan; caught by {@link searchFiles}, never escapes it. */
class BudgetSpent extends Error {
  constructor(readonly stop: SearchStop) {
    super(`search budget ${stop.budget} spent`);
  }
}

/**
 * `work`, or the rejection `ended()` gives at `deadline` or at the signal's abort if one comes
 * first. A read left pending is stopped by its own next checkpoint, which closes what it opened.
 */
function untilEnd<T>(
  work: Promise<T>,
  deadline: number,
  ended: () => unknown,
  signal: AbortSignal | undefined,
  onGiveUp: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const settle = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => (settle(), onGiveUp(), reject(signal?.reason));
    const timer = timerFor(deadline - Date.now(), () => (settle(), onGiveUp(), reject(ended())));
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => (settle(), resolve(value)),
      (error: unknown) => (settle(), reject(error)),
    );
  });
}

/**
 * Finds files whose path or text contains `query` (case-insensitive). Name matches come first,
 * then content matches, each in path order; the scan stops once `limit` hits are found (unless
 * `collect` asks for every match, kept in `matches`), or once a budget of {@link SearchLimits}
 * is spent. It never holds the event loop for more than a few milliseconds: it yields between
 * files and between the pieces of a long text, and checks its deadline and `signal` there.
 * Text is read through the provider (its guards and its cache).
 */
export async function searchFiles(
  provider: FilesystemProvider,
  query: string,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const limit = options.limit ?? 10;
  const maxFileBytes = options.maxFileBytes ?? 8 * 1024 * 1024;
  const maxFiles = options.maxFiles ?? SEARCH_DEFAULTS.maxFiles;
  const maxBytes = options.maxBytes ?? SEARCH_DEFAULTS.maxBytes;
  const timeoutMs = options.timeoutMs ?? SEARCH_DEFAULTS.timeoutMs;
  const { signal } = options;
  const pattern = new RegExp(escapeRegExp(query), 'iu');
  // Case folding keeps a code point's plane: a match takes at most two units per query unit.
  const longest = 2 * query.length;
  const files = await provider.files();
  // The clock starts once the listing is fresh: a walk of a stale listing is the listing's cost
  // (bounded by the provider's maxFiles, shared with list requests), not this search's.
  const deadline = Date.now() + timeoutMs;
  const pace = new Pace();
  // Every name is matched, whatever the budgets (the answer says so): names cost no read.
  const named = new Uint8Array(files.length);
  const byName: FileInfo[] = [];
  for (const [i, file] of files.entries()) {
    if (pace.due) await pace.pause().then(() => signal?.throwIfAborted());
    if (!pattern.test(file.path)) continue;
    named[i] = 1;
    byName.push(file);
  }
  const hits: SearchHit[] = [];
  let scanned = 0;
  let bytes = 0;
  let stopped: SearchStop | undefined;
  const timedOut = (): BudgetSpent => new BudgetSpent({ budget: 'timeoutMs', limit: timeoutMs });
  // A client's cancellation throws its own reason; a spent budget throws BudgetSpent.
  const checkpoint = (): void => {
    signal?.throwIfAborted();
    if (Date.now() >= deadline) throw timedOut();
  };
  const between = async (): Promise<void> => {
    if (pace.due) await pace.pause();
    checkpoint();
  };
  // The budgets before a file is looked at: the raw bytes it may take, or undefined to skip it.
  const admit = (file: FileInfo): number | undefined => {
    if (scanned >= maxFiles) throw new BudgetSpent({ budget: 'maxFiles', limit: maxFiles });
    checkpoint();
    scanned++;
    if (!isTextMimeType(file.mimeType) || file.size > maxFileBytes || file.size === 0)
      return undefined;
    const left = maxBytes - bytes;
    if (file.size > left) throw new BudgetSpent({ budget: 'maxBytes', limit: maxBytes });
    return Math.min(maxFileBytes, left);
  };
  const look = (contents: FileContents): Passage | undefined | Promise<Passage | undefined> => {
    if (contents.text === undefined) return undefined;
    bytes += contents.size;
    return passageIn(contents.text, pattern, longest, between);
  };
  const spent = (error: unknown): undefined => {
    if (!(error instanceof BudgetSpent)) throw error;
    stopped = error.stop;
    return undefined;
  };
  const read = async (file: FileInfo, maxSize: number): Promise<Passage | undefined> => {
    // A file whose read still waits on a hung mount (or a folder with too many such) is not
    // opened again: each such call holds a thread of libuv's pool (read-stalls.ts).
    if (provider.stalls.blocks(file.path)) return undefined;
    const reading = provider.contents(file.path, Number.POSITIVE_INFINITY, {
      checkpoint,
      maxSize,
    });
    const outcome = await untilEnd(reading, deadline, timedOut, signal, () =>
      provider.stalls.abandon(file.path, reading),
    );
    return outcome.kind === 'ok' ? look(outcome.contents) : undefined;
  };
  // Cached contents a read would serve without I/O are looked at at once; the others are read
  // through the provider. Either way the loops below pause once the slice is spent.
  const scan = (file: FileInfo): Passage | undefined | Promise<Passage | undefined> => {
    if (stopped !== undefined) return undefined;
    try {
      const maxSize = admit(file);
      if (maxSize === undefined) return undefined;
      const cached = provider.cachedContents(file.path, maxSize);
      const passage = cached ? look(cached) : read(file, maxSize);
      return passage instanceof Promise ? passage.catch(spent) : passage;
    } catch (error) {
      return spent(error);
    }
  };
  const collect = options.collect === true;
  const all: SearchHit[] = [];
  const found = (hit: SearchHit): void => {
    if (hits.length < limit) hits.push(hit);
    if (collect) all.push(hit);
  };
  // Without a turn before the deadline, no text is looked at: the name matches are the answer.
  const turn = options.turn ? await options.turn(deadline, signal) : () => undefined;
  if (turn === undefined) stopped = timedOut().stop;
  else if (typeof turn !== 'function') stopped = turn;
  const release = typeof turn === 'function' ? turn : undefined;
  let truncated = false;
  try {
    for (const file of byName) {
      if (hits.length >= limit && !collect) break;
      if (pace.due) await pace.pause();
      const inText = await scan(file);
      found(inText ? { file, where: 'name+content', ...inText } : { file, where: 'name' });
    }
    truncated = collect ? false : byName.length > hits.length;
    for (const [i, file] of files.entries()) {
      if (stopped !== undefined) break;
      if (named[i] === 1) continue;
      if (hits.length >= limit && !collect) {
        truncated = true;
        break;
      }
      if (pace.due) await pace.pause();
      let inText = scan(file);
      if (inText instanceof Promise) inText = await inText;
      if (inText) found({ file, where: 'content', ...inText });
    }
  } finally {
    release?.();
  }
  if (collect) truncated = all.length > hits.length;
  const result: SearchResult = { hits, scanned, total: files.length, bytes, truncated };
  if (collect) result.matches = all;
  if (stopped !== undefined) result.stopped = stopped;
  return result;
}
