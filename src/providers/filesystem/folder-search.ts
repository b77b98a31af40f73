/**
 * The folder's search index, held by a worker thread (search-worker.ts, search-port.ts): fed
 * the listing as the first walk finds it, then what each later walk finds changed. The
 * main thread only passes messages, so indexing a large folder or answering a search never
 * delays another request.
 */
import * as path from 'node:path';
import type { McpKitErrorCode } from '../../errors/codes.js';
import { McpKitError } from '../../errors/mcpkit-error.js';
import { timerFor } from './read-timeout.js';
import { waitAtMost } from './wait-at-most.js';
import type { FilesystemProvider, ListingCompanion } from './filesystem-provider.js';
import type { IndexDiff, IndexedFile } from './file-index.js';
import type { SearchFromWorker, SearchToWorker } from './search-channel.js';
import type { SearchAnswer, SearchRequest } from './search-core.js';
import {
  startSearch,
  type SearchPort,
  type SearchSettings,
  type StartSearch,
} from './search-port.js';
import {
  asFile,
  definedOnly,
  diffMessages,
  indexFileOf,
  INDEXED_SEARCH_DEFAULTS,
  type IndexedSearchOptions,
  type IndexProgressCount,
} from './folder-search-options.js';

/** Longest a close waits for the index to be saved (ms). */
const FLUSH_WAIT_MS = 5_000;

/** Longest a close waits for the worker to stop (a thread stuck in a hung file call may not). */
const TERMINATE_WAIT_MS = 1_000;

/** Files sent in one message while the listing is fed (the main thread yields between). */
const FEED_CHUNK = 2_000;

interface Pending {
  resolve: (answer: SearchAnswer) => void;
  reject: (error: Error) => void;
}

export class FolderSearch implements ListingCompanion {
  readonly options: Required<Omit<IndexedSearchOptions, 'onProgress' | 'indexDir'>>;
  private readonly indexDir: string | undefined;
  /** Files indexed of files listed, as last reported by the worker. */
  readonly progress: IndexProgressCount = { indexed: 0, listed: 0 };
  private worker: SearchPort | undefined;
  private starting: Promise<SearchPort> | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly progressListeners = new Set<(progress: IndexProgressCount) => void>();
  private nextId = 0;
  private isClosed = false;
  private closing: Promise<void> | undefined;
  /** Files of the first walk sent so far (undefined before the worker starts). */
  private fed: number | undefined;
  private tail: Promise<void> = Promise.resolve();
  private feeding = true;
  private readonly later: IndexDiff[] = [];
  private find: (path: string) => IndexedFile | undefined = () => undefined;
  /** Marks sent to the worker, each resolved once what was sent before it is indexed. */
  private readonly marks = new Map<number, () => void>();
  /** The first build: the listing fed and indexed. */
  private built: Promise<void> | undefined;
  private buildDone = false;
  /** The worker's first message: its module is loaded. */
  private loaded: Promise<void> = Promise.resolve();
  private onLoaded: (() => void) | undefined;
  private loadedAt = 0;
  /** A worker whose first walk failed: told `synced` once a later walk lists the folder whole. */
  private unsynced: SearchPort | undefined;

  constructor(
    private readonly provider: FilesystemProvider,
    options: IndexedSearchOptions = {},
    private readonly start: StartSearch = startSearch,
    /** Start at `opened` (serving begins), not at the first search. */
    private readonly eager = false,
    private readonly onWarning?: (message: string) => void,
  ) {
    const { onProgress, indexDir, ...limits } = options;
    this.indexDir = indexDir === undefined ? undefined : path.resolve(indexDir);
    this.options = { ...INDEXED_SEARCH_DEFAULTS, ...definedOnly(limits) };
    if (onProgress) {
      const stop = this.onProgress(({ indexed, listed }) => {
        const done = this.buildDone && indexed >= listed;
        onProgress({ indexed, listed, done });
        if (done) stop();
      });
    }
  }

  /** Starts the worker and feeds it the folder (once; searches call it too). */
  begin(): Promise<SearchPort> {
    this.starting ??= this.boot();
    return this.starting;
  }

  /** Sees the index's progress as the worker reports it; returns a function that stops it. */
  onProgress(listener: (progress: IndexProgressCount) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  /** Answers from what is indexed now; rejects at `timeoutMs` or when `signal` aborts. */
  async search(
    request: Omit<SearchRequest, 'listLimit'>,
    signal?: AbortSignal,
  ): Promise<SearchAnswer> {
    if (this.isClosed) throw new McpKitError('PROVIDER_CLOSED', 'the folder is no longer served');
    signal?.throwIfAborted();
    const { timeoutMs } = this.options;
    // The limit counts from the call: the waits for the first build and (unwatched) for a walk
    // are the search's too, and an abort ends any of them.
    const ticket = { over: false, id: -1 };
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort = (): void => undefined;
    const late = `the search took longer than its limit of ${timeoutMs} ms (timeoutMs)`;
    const ended = new Promise<never>((_, reject) => {
      timer = timerFor(timeoutMs, () => reject(new McpKitError('SEARCH_TIMEOUT', late)));
      onAbort = () => reject(signal?.reason as Error);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.run(request, ticket), ended]);
    } finally {
      ticket.over = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      this.pending.delete(ticket.id);
    }
  }

  private async run(
    request: Omit<SearchRequest, 'listLimit'>,
    ticket: { over: boolean; id: number },
  ): Promise<SearchAnswer> {
    const worker = await this.begin();
    this.syncIfWalked();
    const { listLimit, firstBuildWaitMs } = this.options;
    if (this.built) {
      // The wait counts from when the worker runs (loading its module is not the build): only
      // the searches of the first moments wait, never one during a long build.
      await Promise.race([this.built, this.loaded]);
      const left = this.loadedAt + firstBuildWaitMs - performance.now();
      let wait: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((resolve) => (wait = setTimeout(resolve, left)));
      if (left > 0) await Promise.race([this.built, waited]);
      clearTimeout(wait);
    }
    if (this.buildDone && !this.provider.watching) {
      // Unwatched, the index follows the listing: a stale one is walked again first (rescanMs).
      await this.provider.files();
      if (this.worker === worker) await this.mark(worker);
    }
    if (ticket.over) throw new McpKitError('SEARCH_TIMEOUT', 'the search ended before it ran');
    const id = (ticket.id = this.nextId++);
    return new Promise<SearchAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const message: SearchToWorker = { type: 'search', id, request: { ...request, listLimit } };
      worker.postMessage(message);
    });
  }

  /** Resolves once everything sent to the worker so far is indexed. */
  async settled(): Promise<void> {
    const worker = await this.begin();
    await this.built;
    await this.mark(worker);
  }

  private mark(worker: SearchPort): Promise<void> {
    const id = this.nextId++;
    return new Promise<void>((resolve) => {
      this.marks.set(id, resolve);
      worker.postMessage({ type: 'mark', id } satisfies SearchToWorker);
    });
  }

  /**
   * Stops the worker; pending searches reject. With `indexDir`, first waits for the index to
   * be saved (at most {@link FLUSH_WAIT_MS}: a save cut short leaves the last one whole).
   */
  close(): Promise<void> {
    this.closing ??= this.shut();
    return this.closing;
  }

  private async shut(): Promise<void> {
    this.isClosed = true;
    if (this.worker && this.indexDir !== undefined) {
      const id = this.nextId++;
      const flushed = new Promise<void>((resolve) => this.marks.set(id, resolve));
      this.worker.postMessage({ type: 'flush', id });
      // A timer that holds the process open: the worker does not (it is unref'd).
      await waitAtMost(FLUSH_WAIT_MS, flushed);
    }
    const worker = this.worker;
    this.worker = undefined;
    this.release('PROVIDER_CLOSED', 'the folder is no longer served');
    if (!worker) return;
    await waitAtMost(TERMINATE_WAIT_MS, worker.terminate());
  }

  private async boot(): Promise<SearchPort> {
    const rules = await this.provider.containment();
    if (this.isClosed) throw new McpKitError('PROVIDER_CLOSED', 'the folder is no longer served');
    const settings: SearchSettings = {
      root: rules.root,
      hidden: rules.visibility.hidden,
      ignore: [...rules.visibility.ignore],
      refuseHardLinks: rules.refuseHardLinks === true,
      maxFileBytes: this.options.maxFileBytes,
      readTimeoutMs: this.provider.readTimeoutMs,
      maxPhraseChecks: this.options.maxPhraseChecks,
      uriPrefix: this.provider.uriPrefix,
      ...(this.indexDir !== undefined ? { indexFile: indexFileOf(this.indexDir, rules.root) } : {}),
    };
    const worker = this.start(settings, this.provider.ownFs);
    worker.unref();
    this.loaded = new Promise((resolve) => (this.onLoaded = resolve));
    worker.on('message', (message: SearchFromWorker) => this.onMessage(message));
    worker.on('error', (error: Error) => this.fail(worker, error));
    worker.on('exit', (code: number) =>
      this.fail(worker, new Error(`the search worker exited (${code})`)),
    );
    this.worker = worker;
    // What is walked now, then what the walk adds (at the listing's end), then what later walks
    // change: changes seen before the listing is fed whole are applied after it, in order, so
    // that none is overtaken by older listing data (a worker started again is fed anew too).
    this.fed = 0;
    this.feeding = true;
    await this.feedTail(worker, await this.provider.files());
    this.built = this.provider
      .ready()
      .then(async () => {
        await this.feedTail(worker, await this.provider.files());
        if (this.worker === worker) worker.postMessage({ type: 'synced' });
      })
      // A first walk that failed: what was fed is searched, and later walks' changes follow;
      // once one lists the folder whole, it is fed whole and `synced` (see syncIfWalked).
      .catch(() => void (this.unsynced = worker))
      .then(async () => {
        // A worker that stopped meanwhile: the one started after it is fed by its own start.
        if (this.worker !== worker) return;
        this.feeding = false;
        for (const diff of this.later.splice(0)) this.send(diffMessages(diff, this.find));
        await this.mark(worker);
        if (this.worker !== worker) return;
        this.buildDone = true;
        for (const listener of this.progressListeners) listener(this.progress);
      });
    return worker;
  }

  /** Sends `worker` the files of `files` past those already sent (the listing being fed). */
  private feedTail(worker: SearchPort, files: readonly IndexedFile[]): Promise<void> {
    this.tail = this.tail.then(async () => {
      for (let fed = this.fed ?? 0; this.worker === worker && fed < files.length;) {
        const chunk = files.slice(fed, fed + FEED_CHUNK);
        this.fed = fed += chunk.length;
        worker.postMessage({ type: 'files', files: chunk.map(asFile) } satisfies SearchToWorker);
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    return this.tail;
  }

  /** See ListingCompanion: the provider opened (serving begins). */
  opened(): void {
    if (!this.eager) return;
    this.begin().catch((error: unknown) =>
      this.onWarning?.(`the search index did not start: ${(error as Error).message}`),
    );
  }

  grew(files: readonly IndexedFile[]): void {
    if (this.fed !== undefined && this.worker) void this.feedTail(this.worker, files);
  }

  changed(diff: IndexDiff, find: (path: string) => IndexedFile | undefined): void {
    this.find = find;
    if (this.fed === undefined) return;
    if (this.feeding) this.later.push(diff);
    else this.send(diffMessages(diff, find));
    this.syncIfWalked();
  }

  /**
   * After a failed first walk, once a later one listed the folder whole: the worker is fed the
   * whole listing again (what was fed before may not be its start) and told `synced`, so that
   * files of a saved index that are gone are dropped (pruneUnseen).
   */
  private syncIfWalked(): void {
    const worker = this.unsynced;
    if (!worker || this.worker !== worker || !this.provider.listingState.complete) return;
    this.unsynced = undefined;
    void this.provider.files().then(
      async (files) => {
        this.fed = 0;
        await this.feedTail(worker, files);
        if (this.worker === worker) worker.postMessage({ type: 'synced' } satisfies SearchToWorker);
      },
      () => void (this.unsynced = worker),
    );
  }

  closed(): Promise<void> {
    return this.close();
  }

  private send(messages: SearchToWorker[]): void {
    for (const message of messages) this.worker?.postMessage(message);
  }

  private onMessage(message: SearchFromWorker): void {
    if (this.onLoaded) {
      this.loadedAt = performance.now();
      this.onLoaded();
      this.onLoaded = undefined;
    }
    if (message.type === 'progress') {
      this.progress.indexed = message.indexed;
      this.progress.listed = message.listed;
      for (const listener of this.progressListeners) listener(this.progress);
      return;
    }
    if (message.type === 'warning') {
      this.onWarning?.(message.message);
      return;
    }
    if (message.type === 'marked') {
      this.marks.get(message.id)?.();
      this.marks.delete(message.id);
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.type === 'answer') pending.resolve(message.answer);
    else pending.reject(new McpKitError('SEARCH_FAILED', `the search failed: ${message.message}`));
  }

  /** A worker that died: pending searches reject, and the next search starts a new one. */
  private fail(worker: SearchPort, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.starting = undefined;
    this.fed = undefined;
    // The next start feeds the listing as it is then: changes waiting for this one are in it.
    this.later.length = 0;
    this.release('SEARCH_FAILED', `the search index stopped: ${error.message}`);
  }

  /** Pending searches reject; waiters on marks a stopped worker will never answer go on. */
  private release(code: McpKitErrorCode, message: string): void {
    for (const pending of this.pending.values()) pending.reject(new McpKitError(code, message));
    this.pending.clear();
    for (const resolve of this.marks.values()) resolve();
    this.marks.clear();
  }
}
