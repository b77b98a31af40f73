/** Case-insensitive search over file names and text contents of a served folder. */
import { isTextMimeType } from '../../content/mime.js';
import type { FileInfo, FilesystemProvider } from './filesystem-provider.js';
import type { FileContents } from './read-file.js';

/** Where a file's text matched: a passage around it and its line. */
interface Passage {
  snippet: string;
  line: number;
}

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
   * Most milliseconds one search takes once the listing is fresh; checked between files and
   * between the steps of a large read (default 5,000).
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
  budget: keyof SearchLimits;
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

const SNIPPET_SIDE = 60;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A passage of about 120 characters around `index`, on one line, with ellipses where cut. */
export function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - SNIPPET_SIDE);
  const end = Math.min(text.length, index + length + SNIPPET_SIDE);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Finds files whose path or text contains `query` (case-insensitive). Name matches come first,
 * then content matches, each in path order; the scan stops once `limit` hits are found (unless
 * `collect` asks for every match, kept in `matches`), or once a budget of {@link SearchLimits} is spent (checked before each file, and between the steps of
 * a large read). Text is read through the provider (its guards and its cache).
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
  const pattern = new RegExp(escapeRegExp(query), 'iu');
  const files = await provider.files();
  // The clock starts once the listing is fresh: a walk of a stale listing is the listing's cost
  // (bounded by the provider's maxFiles, shared with list requests), not this search's.
  const deadline = Date.now() + timeoutMs;
  const byName = files.filter((f) => pattern.test(f.path));
  const named = new Set(byName.map((f) => f.path));
  const hits: SearchHit[] = [];
  let scanned = 0;
  let bytes = 0;
  let stopped: SearchStop | undefined;
  // A client's cancellation throws its own reason; a spent budget throws BudgetSpent.
  const checkpoint = (): void => {
    options.signal?.throwIfAborted();
    if (Date.now() >= deadline) throw new BudgetSpent({ budget: 'timeoutMs', limit: timeoutMs });
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
  const passage = (contents: FileContents): Passage | undefined => {
    if (contents.text === undefined) return undefined;
    bytes += contents.size;
    const text = contents.text;
    const found = pattern.exec(text);
    if (!found) return undefined;
    return {
      snippet: snippetAround(text, found.index, found[0].length),
      line: lineAt(text, found.index),
    };
  };
  const spent = (error: unknown): undefined => {
    if (!(error instanceof BudgetSpent)) throw error;
    stopped = error.stop;
    return undefined;
  };
  const read = async (file: FileInfo, maxSize: number): Promise<Passage | undefined> => {
    try {
      const outcome = await provider.contents(file.path, Number.POSITIVE_INFINITY, {
        checkpoint,
        maxSize,
      });
      return outcome.kind === 'ok' ? passage(outcome.contents) : undefined;
    } catch (error) {
      return spent(error);
    }
  };
  // Cached contents a read would serve without I/O are looked at at once (no turn of the loop
  // per file); the others are read through the provider.
  const scan = (file: FileInfo): Passage | undefined | Promise<Passage | undefined> => {
    if (stopped !== undefined) return undefined;
    try {
      const maxSize = admit(file);
      if (maxSize === undefined) return undefined;
      const cached = provider.cachedContents(file.path, maxSize);
      return cached ? passage(cached) : read(file, maxSize);
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
  for (const file of byName) {
    if (hits.length >= limit && !collect) break;
    const inText = await scan(file);
    found(inText ? { file, where: 'name+content', ...inText } : { file, where: 'name' });
  }
  let truncated = collect ? false : byName.length > hits.length;
  for (const file of files) {
    if (stopped !== undefined) break;
    if (named.has(file.path)) continue;
    if (hits.length >= limit && !collect) {
      truncated = true;
      break;
    }
    let inText = scan(file);
    if (inText instanceof Promise) inText = await inText;
    if (inText) found({ file, where: 'content', ...inText });
  }
  if (collect) truncated = all.length > hits.length;
  const result: SearchResult = { hits, scanned, total: files.length, bytes, truncated };
  if (collect) result.matches = all;
  if (stopped !== undefined) result.stopped = stopped;
  return result;
}
