/**
 * The folder's search index as its worker runs it (search-worker.ts): which version of each file
 * is indexed, a queue of files to (re)read, and the answers. Files are read through the same
 * guards as a `resources/read` (resolveInRoot, then readFileContents), a few at a time, with a
 * time limit each: a hung file is left behind and read again later (search-stalls.ts).
 */
import { isTextMimeType } from '../../content/mime.js';
import { compileGlob } from '../../search/glob.js';
import { TextIndex, type MatchPlace } from '../../search/text-index.js';
import { parseQuery } from '../../search/terms.js';
import type { ProviderFs } from './fs-types.js';
import type { Visibility } from './paths.js';
import { readFileContents } from './read-file.js';
import type { ReadPool } from './read-pool.js';
import { resolveInRoot } from './resolve.js';
import { FolderUris } from './folder-uris.js';
import { moreEntries, type MoreEntries } from './search-entries.js';
import { firstMatch, phraseAt } from './search-text.js';
import { FAILED, RETRY_MS, SearchStalls, TIMED_OUT, within } from './search-stalls.js';

/** A listed file as the index sees it. */
export interface SearchFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** With size and mtime, the version (file-index.ts); absent, only size and mtime count. */
  readonly ino?: number;
  readonly ctimeMs?: number;
  readonly mimeType: string;
}

export interface SearchCoreOptions {
  readonly fs: ProviderFs;
  /** The root as a real path. */
  readonly root: string;
  readonly visibility: Visibility;
  readonly refuseHardLinks: boolean;
  /** Larger text files are indexed by name only. */
  readonly maxFileBytes: number;
  /** Longest one file's read may take before it is indexed by name only (ms). */
  readonly readTimeoutMs: number;
  /** Most phrase candidates read to check a phrase, per search. */
  readonly maxPhraseChecks: number;
  /** A saved index to start from (search-store.ts): its files are read again only if changed. */
  readonly restored?: { index: TextIndex; versions: Map<string, string> } | undefined;
  /**
   * Read workers for a large batch (a build): each runs a file's whole guarded read with
   * blocking calls (read-job.ts, the same guards), one message each way instead of eight libuv
   * hops, which took a third of the indexing thread's time (docs/search-index.md). Only over
   * node's own file system. Closed (their threads ended) whenever the queue is drained; a few
   * changed files are read directly.
   */
  readonly readers?: ReadPool | undefined;
  /** The first wait before a file whose read timed out or failed is read again (ms). */
  readonly retryMs?: number | undefined;
  /** Called when the index is idle after a change (to save it). */
  readonly onIdle?: (() => void) | undefined;
  /** The folder's URI prefix (the artifact entries' `uri`; default `file:///`). */
  readonly uriPrefix?: string | undefined;
}

export interface SearchRequest {
  readonly query: string;
  readonly limit: number;
  /** A glob over root-relative paths (`src/**\/*.ts`). */
  readonly path?: string | undefined;
  /** Most matches listed in all, the hits included (past the hits: paths and lines only). */
  readonly listLimit: number;
}

export interface FoundFile {
  readonly path: string;
  readonly where: MatchPlace;
  readonly line?: number;
  readonly snippet?: string;
}

export interface SearchAnswer {
  /** The best `limit` matches, with the line and a snippet of the first match when in the text. */
  readonly hits: FoundFile[];
  /**
   * The matches after the hits, best first, up to `listLimit` in all, as artifact entries with
   * the first line where a word of the query occurs (as the index keeps it; no snippet).
   */
  readonly more: MoreEntries;
  /** Files that match in all. */
  readonly total: number;
  /** Files indexed when the search ran, and files listed: fewer means a partial answer. */
  readonly indexed: number;
  readonly listed: number;
  /** Phrase candidates left unchecked (the phrase check's budget ran out). */
  readonly unchecked: number;
}

/** Reads in flight: through read workers, enough to keep each busy with the next job queued. */
const READS_AT_ONCE = 4;
const POOLED_READS_AT_ONCE = 16;
/** Files read at once for the snippets of one answer. */
const SNIPPET_READS = 8;
/** Files queued from which the read workers (when given) read them. */
const POOLED_FROM = 256;
/** Files indexed before the lists are fitted again, once idle. */
const FIT_AFTER = 1_000;

export class SearchCore {
  readonly index: TextIndex;
  /** Every listed file and the version indexed (undefined: waiting for its read). */
  private readonly listed = new Map<string, SearchFile>();
  private readonly indexedVersion: Map<string, string>;
  /** Restored files the listing has not named since the start (pruned once it was fed whole). */
  private unseen: Set<string> | undefined;
  private changedSinceIdle = false;
  private readonly queue = new Set<string>();
  private reading = 0;
  private addedSinceFit = 0;
  private idle: (() => void)[] = [];
  private readonly stalls: SearchStalls;
  /** Snippet and phrase reads in flight, by path: one at a time per path. */
  private readonly live = new Map<string, Promise<string | undefined>>();
  /** Something was indexed or removed since the last snapshot (see {@link unsaved}). */
  private changedSinceSnapshot = false;
  private readonly uris: FolderUris;

  constructor(private readonly options: SearchCoreOptions) {
    const room = options.readers ? Math.max(1, options.readers.heldRoom) : 0;
    this.stalls = new SearchStalls((path) => this.requeue(path), options.retryMs ?? RETRY_MS, room);
    this.index = options.restored?.index ?? new TextIndex();
    this.indexedVersion = options.restored?.versions ?? new Map();
    if (options.restored) this.unseen = new Set(this.indexedVersion.keys());
    this.uris = new FolderUris(options.uriPrefix);
  }

  /** The index and the version of each file in it, to save them. */
  snapshot(): { index: TextIndex; versions: ReadonlyMap<string, string> } {
    this.changedSinceSnapshot = false;
    return { index: this.index, versions: this.indexedVersion };
  }

  /** Whether something was indexed or removed since the last snapshot (a close saves it). */
  get unsaved(): boolean {
    return this.changedSinceSnapshot;
  }

  /** The listing was fed whole: restored files it did not name are gone. */
  pruneUnseen(): void {
    for (const path of this.unseen ?? []) {
      if (this.listed.has(path)) continue;
      this.indexedVersion.delete(path);
      this.index.remove(path);
      this.changedSinceIdle = this.changedSinceSnapshot = true;
    }
    this.unseen = undefined;
    if (this.queue.size === 0 && this.reading === 0) this.settle();
  }

  /** Files indexed (a file waiting for its first read is not). */
  get indexed(): number {
    return this.indexedVersion.size;
  }

  get size(): number {
    return this.listed.size;
  }

  /** The whole listing: what is new or changed is queued, what is gone is dropped. */
  replaceAll(files: readonly SearchFile[]): void {
    const seen = new Set<string>();
    for (const file of files) {
      seen.add(file.path);
      this.upsert(file);
    }
    for (const path of [...this.listed.keys()]) if (!seen.has(path)) this.remove(path);
  }

  /** A file added or changed; queued unless this version is already indexed. */
  upsert(file: SearchFile): void {
    this.listed.set(file.path, file);
    this.unseen?.delete(file.path);
    if (this.indexedVersion.get(file.path) === versionOf(file)) return;
    // Until this version is read, the file is not indexed as it is: answers say they are partial
    // (what the older version holds may still match meanwhile).
    this.indexedVersion.delete(file.path);
    this.stalls.reset(file.path);
    this.queue.add(file.path);
    this.pump();
  }

  remove(path: string): void {
    this.listed.delete(path);
    this.queue.delete(path);
    this.indexedVersion.delete(path);
    this.stalls.reset(path);
    if (this.index.remove(path)) this.changedSinceIdle = this.changedSinceSnapshot = true;
  }

  /** A file to read again (its retry is due), or none: a stalled read returned, room to read. */
  private requeue(path: string | undefined): void {
    const file = path !== undefined ? this.listed.get(path) : undefined;
    if (file && this.indexedVersion.get(file.path) !== versionOf(file)) this.queue.add(file.path);
    this.pump();
  }

  /** Resolves once nothing is queued nor being read. */
  drained(): Promise<void> {
    if (this.queue.size === 0 && this.reading === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    const { readers } = this.options;
    const stalls = this.stalls;
    // Direct reads held by a hung mount: the read workers take the rest, and the other way round.
    let pooled = readers !== undefined && (this.queue.size >= POOLED_FROM || stalls.directFull);
    if (pooled && stalls.pooledFull) pooled = false;
    // Every thread it may take is held: the queue waits for a stalled read to return.
    if (pooled ? stalls.pooledFull : stalls.directFull) return this.settleIfDone();
    const most = pooled ? POOLED_READS_AT_ONCE : READS_AT_ONCE;
    while (this.reading < most && this.queue.size > 0) {
      const path = this.queue.values().next().value as string;
      this.queue.delete(path);
      const file = this.listed.get(path);
      if (!file) continue;
      // Never a second read of a path whose read is stalled: it is read once that one returned.
      if (stalls.stalled(path)) {
        stalls.failed(path);
        continue;
      }
      this.reading++;
      void this.indexFile(file, pooled).finally(() => {
        this.reading--;
        this.pump();
      });
    }
    this.settleIfDone();
  }

  private settleIfDone(): void {
    if (this.queue.size === 0 && this.reading === 0) this.settle();
  }

  /** Nothing queued nor read: the lists give back their growth room, the index may be saved. */
  private settle(): void {
    // A worker held by a stalled read stays (closing would only leak its thread): closed later.
    if (!this.stalls.holdsWorkers) this.options.readers?.close();
    if (this.addedSinceFit >= FIT_AFTER) {
      this.addedSinceFit = 0;
      this.index.fit();
    }
    if (this.changedSinceIdle) {
      this.changedSinceIdle = false;
      this.options.onIdle?.();
    }
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private async indexFile(file: SearchFile, pooled: boolean): Promise<void> {
    const text = await this.textOf(file, pooled).catch((): typeof FAILED => FAILED);
    // Listed again (changed) or dropped while it was read: that newer state wins.
    if (this.listed.get(file.path) !== file) return;
    // A read past its time limit or failed (a lost worker, EIO, EMFILE) indexes nothing: the
    // file counts as not indexed (the answers say so) and is read again later.
    if (text === TIMED_OUT || text === FAILED) return this.stalls.failed(file.path);
    this.stalls.reset(file.path);
    this.index.add(file.path, text);
    this.addedSinceFit++;
    this.changedSinceIdle = this.changedSinceSnapshot = true;
    this.indexedVersion.set(file.path, versionOf(file));
  }

  /** The text a read would serve, or undefined (binary, too large, unreadable), or TIMED_OUT. */
  private async textOf(
    file: SearchFile,
    pooled = false,
    /** Called once the read's calls returned (not at its time limit). */
    ended?: () => void,
  ): Promise<string | undefined | typeof TIMED_OUT> {
    const { fs, root, visibility, refuseHardLinks, maxFileBytes } = this.options;
    if (!isTextMimeType(file.mimeType) || file.size > maxFileBytes || file.size === 0) {
      ended?.();
      return undefined;
    }
    const limit = 2 * maxFileBytes + 2;
    const { readers, readTimeoutMs } = this.options;
    const late = (work: Promise<unknown>): void => this.stalls.stall(file.path, work, !pooled);
    if (readers && pooled) {
      // The time limit counts from when a worker takes the job, not while it waits for one.
      return within(readTimeoutMs, late, async (started) => {
        const job = { root, relative: file.path, visibility, refuseHardLinks };
        const read = { ...job, limitBytes: limit, keepsWireBytes: limit };
        const { outcome } = await readers.run(read, started);
        return outcome?.kind === 'ok' ? outcome.contents.text : undefined;
      });
    }
    const direct = async (): Promise<string | undefined> => {
      const rules = { root, visibility, refuseHardLinks };
      const resolved = await resolveInRoot(fs, root, file.path, visibility, rules);
      if (resolved.kind !== 'file') return undefined;
      const outcome = await readFileContents(fs, resolved.real, file.path, limit, rules);
      return outcome.kind === 'ok' ? outcome.contents.text : undefined;
    };
    return within(readTimeoutMs, late, (started) => {
      started();
      const work = direct();
      if (ended) work.then(ended, ended);
      return work;
    });
  }

  /** Answers a search from what is indexed now. */
  async search(request: SearchRequest): Promise<SearchAnswer> {
    const query = parseQuery(request.query);
    const filter = request.path !== undefined ? compileGlob(request.path) : undefined;
    const wanted = Math.max(request.limit, request.listLimit);
    const phrases = query.phrases.length > 0;
    const budget = this.options.maxPhraseChecks;
    // What the answer says of the index is what it searched (files may be indexed meanwhile).
    const { indexed } = this;
    const listed = this.listed.size;
    // A phrase is checked in the text: ask for enough candidates to check within the budget.
    const found = this.index.search(query, {
      limit: phrases ? Math.max(wanted, budget) : wanted,
      ...(filter ? { filter } : {}),
    });
    let ranked = found.matches;
    let total = found.total;
    let unchecked = 0;
    const texts = new Map<string, string | undefined>();
    if (phrases) {
      const kept: typeof ranked = [];
      let checks = 0;
      for (const match of ranked) {
        if (checks >= budget) break;
        checks++;
        const text = await this.liveText(match.path);
        if (text !== undefined && query.phrases.every((p) => phraseAt(text, p) >= 0)) {
          // Only the hits' texts are kept (their snippets): a phrase search holds little.
          if (kept.length < request.limit) texts.set(match.path, text);
          kept.push(match);
        }
      }
      // Every candidate is checked while the budget lasts: `total` counts phrase matches only,
      // and `unchecked` the candidates the budget left.
      unchecked = Math.max(0, found.total - checks);
      total = kept.length;
      ranked = kept.slice(0, wanted);
    }
    // Past the hits, the line the index keeps (where a word first occurs): no file is read.
    // Written before the snippets are read, so that a thousand matches do not outlive the reads
    // (and the collections meanwhile) only to be dropped after.
    const past = ranked.slice(request.limit, wanted);
    const more = moreEntries(past, (path) => this.uris.uriOf(path), !phrases);
    // The hits' snippets: a few files read at once (each read is several hops), in rank order,
    // each text dropped once its snippet is cut.
    const best = ranked.slice(0, request.limit);
    ranked = [];
    const hits: FoundFile[] = new Array<FoundFile>(best.length);
    let next = 0;
    const lane = async (): Promise<void> => {
      for (let i = next++; i < best.length; i = next++) {
        const match = best[i]!;
        const text = texts.has(match.path)
          ? texts.get(match.path)
          : await this.liveText(match.path);
        const at = text === undefined ? undefined : firstMatch(text, query);
        hits[i] = { path: match.path, where: match.where, ...(at ?? {}) };
      }
    };
    await Promise.all(Array.from({ length: Math.min(SNIPPET_READS, best.length) }, lane));
    return { hits, more, total, indexed, listed, unchecked };
  }

  /**
   * The text of `path` read now (a snippet, a phrase check): one read at a time per path, none of
   * a path whose read is stalled nor while maxDirectStalls() direct reads are (undefined then).
   */
  private liveText(path: string): Promise<string | undefined> {
    const file = this.listed.get(path);
    if (!file || this.stalls.stalled(path) || this.stalls.directFull) {
      return Promise.resolve(undefined);
    }
    const running = this.live.get(path);
    if (running) return running;
    // A turn among all searches' reads: those of 4 searches on a hung mount never hold 32 threads.
    const read = this.stalls.liveTurn().then(async (turn) => {
      if (!turn || this.stalls.stalled(path)) {
        if (turn) this.stalls.endLive();
        return undefined;
      }
      const text = await this.textOf(file, false, () => this.stalls.endLive()).catch(() => FAILED);
      return typeof text === 'string' ? text : undefined;
    });
    this.live.set(path, read);
    void read.finally(() => this.live.delete(path));
    return read;
  }
}

function versionOf(file: SearchFile): string {
  return `${file.size}:${file.mtimeMs}:${file.ino ?? ''}:${file.ctimeMs ?? ''}:${file.mimeType}`;
}
