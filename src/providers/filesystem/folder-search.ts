/**
 * The folder's search index, held by a worker thread (search-worker.ts): fed the listing once
 * the provider is ready, then what each walk finds changed; asked one search at a time. The
 * main thread only passes messages, so indexing a large folder or answering a search never
 * delays another request.
 */
import type { Worker } from 'node:worker_threads';
import { McpKitError } from '../../errors/mcpkit-error.js';
import type { FilesystemProvider } from './filesystem-provider.js';
import type { IndexDiff, IndexedFile } from './file-index.js';
import type { SearchAnswer, SearchFile, SearchRequest } from './search-core.js';
import { startModuleWorker } from './worker-start.js';

/** Main thread → worker. */
export type SearchToWorker =
  | { type: 'files'; files: SearchFile[] }
  | { type: 'remove'; paths: string[] }
  | { type: 'search'; id: number; request: SearchRequest };

/** Worker → main thread. */
type SearchFromWorker =
  | { type: 'progress'; indexed: number; listed: number }
  | { type: 'answer'; id: number; answer: SearchAnswer }
  | { type: 'failed'; id: number; message: string };

export interface IndexedSearchOptions {
  /** Larger text files are found by name only (default 8 MiB). */
  maxFileBytes?: number;
  /** Longest a search may take, its wait for the index included (ms, default 5,000). */
  timeoutMs?: number;
  /** Most files read to check a quoted phrase, per search (default 2,000). */
  maxPhraseChecks?: number;
  /** Most matches listed in a search's artifact (default 1,000). */
  listLimit?: number;
}

export const INDEXED_SEARCH_DEFAULTS = {
  maxFileBytes: 8 * 1024 * 1024,
  timeoutMs: 5_000,
  maxPhraseChecks: 2_000,
  listLimit: 1_000,
} as const satisfies Required<IndexedSearchOptions>;

/** How far the index got: files indexed of files listed. */
export interface IndexProgressCount {
  indexed: number;
  listed: number;
}

export type StartSearchWorker = (settings: Record<string, unknown>) => Worker;

const startWorker: StartSearchWorker = (settings) =>
  startModuleWorker(import.meta.url, 'search-worker', settings);

/** Files sent in one message while the listing is fed (the main thread yields between). */
const FEED_CHUNK = 2_000;

interface Pending {
  resolve: (answer: SearchAnswer) => void;
  reject: (error: Error) => void;
}

const asFile = (f: IndexedFile): SearchFile => ({
  path: f.path,
  size: f.size,
  mtimeMs: f.mtimeMs,
  mimeType: f.mimeType,
});

export class FolderSearch {
  readonly options: Required<IndexedSearchOptions>;
  /** Files indexed of files listed, as last reported by the worker. */
  readonly progress: IndexProgressCount = { indexed: 0, listed: 0 };
  private worker: Worker | undefined;
  private starting: Promise<Worker> | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly progressListeners = new Set<(progress: IndexProgressCount) => void>();
  private nextId = 0;
  private closed = false;
  private unfollow: (() => void) | undefined;

  constructor(
    private readonly provider: FilesystemProvider,
    options: IndexedSearchOptions = {},
    private readonly start: StartSearchWorker = startWorker,
  ) {
    this.options = { ...INDEXED_SEARCH_DEFAULTS, ...definedOnly(options) };
  }

  /** Starts the worker and feeds it the folder (once; searches call it too). */
  begin(): Promise<Worker> {
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
    const worker = await this.begin();
    signal?.throwIfAborted();
    const id = this.nextId++;
    const { timeoutMs, listLimit } = this.options;
    return new Promise<SearchAnswer>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const onAbort = (): void => (done(), reject(signal?.reason as Error));
      const timer = setTimeout(() => {
        done();
        reject(
          new McpKitError(
            'SEARCH_TIMEOUT',
            `the search took longer than its limit of ${timeoutMs} ms (timeoutMs)`,
          ),
        );
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (answer) => (done(), resolve(answer)),
        reject: (error) => (done(), reject(error)),
      });
      const message: SearchToWorker = { type: 'search', id, request: { ...request, listLimit } };
      worker.postMessage(message);
    });
  }

  /** Stops the worker; pending searches reject. */
  async close(): Promise<void> {
    this.closed = true;
    this.unfollow?.();
    const worker = this.worker;
    this.worker = undefined;
    for (const [, pending] of this.pending) {
      pending.reject(new McpKitError('PROVIDER_CLOSED', 'the folder is no longer served'));
    }
    this.pending.clear();
    await worker?.terminate();
  }

  private async boot(): Promise<Worker> {
    const rules = await this.provider.containment();
    if (this.closed) throw new McpKitError('PROVIDER_CLOSED', 'the folder is no longer served');
    const worker = this.start({
      root: rules.root,
      hidden: rules.visibility.hidden,
      ignore: [...rules.visibility.ignore],
      refuseHardLinks: rules.refuseHardLinks === true,
      maxFileBytes: this.options.maxFileBytes,
      readTimeoutMs: this.provider.readTimeoutMs,
      maxPhraseChecks: this.options.maxPhraseChecks,
    });
    worker.unref();
    worker.on('message', (message: SearchFromWorker) => this.onMessage(message));
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => this.fail(worker, new Error(`the search worker exited (${code})`)));
    this.worker = worker;
    // Changes seen while the listing is fed are applied after it, in order.
    const later: IndexDiff[] = [];
    let feeding = true;
    const apply = (diff: IndexDiff, lookup: (path: string) => IndexedFile | undefined): void => {
      if (feeding) return void later.push(diff);
      this.send(diffMessages(diff, lookup));
    };
    let lookup: (path: string) => IndexedFile | undefined = () => undefined;
    this.unfollow = this.provider.onListingChange((diff, find) => {
      lookup = find;
      apply(diff, find);
    });
    const files = await this.provider.files();
    for (let at = 0; at < files.length; at += FEED_CHUNK) {
      this.send([{ type: 'files', files: files.slice(at, at + FEED_CHUNK).map(asFile) }]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    feeding = false;
    for (const diff of later.splice(0)) this.send(diffMessages(diff, lookup));
    return worker;
  }

  private send(messages: SearchToWorker[]): void {
    for (const message of messages) this.worker?.postMessage(message);
  }

  private onMessage(message: SearchFromWorker): void {
    if (message.type === 'progress') {
      this.progress.indexed = message.indexed;
      this.progress.listed = message.listed;
      for (const listener of this.progressListeners) listener(this.progress);
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.type === 'answer') pending.resolve(message.answer);
    else pending.reject(new McpKitError('SEARCH_FAILED', `the search failed: ${message.message}`));
  }

  /** A worker that died: pending searches reject, and the next search starts a new one. */
  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.starting = undefined;
    this.unfollow?.();
    for (const [, pending] of this.pending) {
      pending.reject(
        new McpKitError('SEARCH_FAILED', `the search index stopped: ${error.message}`),
      );
    }
    this.pending.clear();
  }
}

function diffMessages(
  diff: IndexDiff,
  lookup: (path: string) => IndexedFile | undefined,
): SearchToWorker[] {
  const files: SearchFile[] = [];
  for (const path of [...diff.added, ...diff.changed]) {
    const file = lookup(path);
    if (file) files.push(asFile(file));
  }
  const out: SearchToWorker[] = [];
  if (diff.removed.length > 0) out.push({ type: 'remove', paths: diff.removed });
  if (files.length > 0) out.push({ type: 'files', files });
  return out;
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
