/**
 * A folder served as MCP resources: `file:///{+path}` with a paged list, completion and safe
 * reads, and `file:///{+path}{?offset,length,version}` to read a file of any size in parts.
 */
import * as path from 'node:path';
import { mimeFromName } from '../../content/mime.js';
import type { ListedResource, McpServer, ResourceStat } from '../../server/index.js';
import type { CacheStats } from './content-cache.js';
import type { FileIndex, IndexDiff } from './file-index.js';
import {
  DEFAULT_MAX_FILES,
  FolderListing,
  folderRoot,
  type ListingCompanion,
  type ListingState,
} from './folder-listing.js';
import { FileParts } from './file-parts.js';
import { ListingViews, type FileInfo } from './listing-views.js';
import { registerFileResources } from './file-resources.js';
import { followChanges } from './bus-freshness.js';
import { fingerprintOfOutcome, FINGERPRINT_MAX_WIRE_BYTES } from './fingerprint.js';
import type { FolderChangeListener } from './folder-changes.js';
import { DEFAULT_WATCH_DEBOUNCE_MS, FolderFreshness } from './folder-freshness.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import type { FilesystemProviderOptions } from './provider-options.js';
import type { ContentsOutcome } from './file-reader.js';
import { FileSource } from './file-source.js';
import { readersOf } from './read-pool.js';
import { readTimeoutOf } from './read-timeout.js';
import type { FileContents, ReadControl } from './read-file.js';
import type { Containment } from './resolve.js';
import { completePaths, type PathCompletion, type Visibility } from './paths.js';
import { FolderUris } from './folder-uris.js';
import type { ReadStalls } from './read-stalls.js';

export type { FilesystemProviderOptions } from './provider-options.js';
export type { FileInfo, ListingCompanion, ListingState };

/**
 * Serves a folder as resources. Reads resolve the path under the root, follow symlinks only to
 * targets inside it, and serve regular files only; anything else is refused with -32602 before a
 * byte is read. A file that cannot fit the request's result cap is refused with -32603 from its
 * size alone; one that kept changing while it was read, with -32603 `reason: 'changed'` (never
 * bytes of two versions). A file this process may not read is neither listed, searched nor
 * completed, and reads as a missing one. Encoded contents of unchanged files are cached (by real
 * path, device, inode, size, mtime and ctime; bounded in bytes), and a path's resolution is
 * remembered while valid. With `watch`, changes on disk are announced, debounced:
 * `resources/updated` for a changed file (compared by contents when someone listens),
 * `list_changed` for one added or removed.
 *
 * The folder is walked in the background ({@link open}); until that first walk ends, lists and
 * completion answer from the files walked so far, in path order, and reads serve any file.
 *
 * @example
 * const provider = createFilesystemProvider({ root: './docs' });
 * provider.register(server);
 * await provider.ready();
 */
export class FilesystemProvider {
  /** The served folder, absolute (as given, before symlinks are resolved). */
  readonly root: string;
  /** `file:///{+path}` (the `uriPrefix` option, then `{+path}`). */
  readonly uriTemplate: string;
  /** The `uriPrefix` option, checked (`file:///` by default). */
  readonly uriPrefix: string;
  private readonly uris: FolderUris;
  /**
   * The template of the parts of a file, `${uriPrefix}{+path}{?offset,length,version}`: `offset`
   * (default 0) and `length` (default {@link partBytes}) in bytes, `version` from a part's `_meta`.
   */
  readonly partsTemplate: string;
  private readonly parts: FileParts;
  private readonly fs: ProviderFs;
  private readonly visibility: Visibility;
  private readonly source: FileSource;
  private readonly options: FilesystemProviderOptions;
  /** How long one read may take (`readTimeoutMs`). */
  readonly readTimeoutMs: number;
  /** Reads past their time limit still waiting on the file system (read-stalls.ts). */
  readonly stalls: ReadStalls;
  private readonly servers = new Set<McpServer>();
  private within: Containment | undefined;
  private listing: FolderListing | undefined;
  private opening: Promise<void> | undefined;
  /** `open()` resolved: a read need not wait for it (and may be answered without a promise). */
  private started = false;
  private readonly views = new ListingViews();
  private readonly freshness: FolderFreshness;
  /** What serves the folder beside it (its search index): told of the listing, closed with it. */
  private readonly companions = new Set<ListingCompanion>();
  /** Digests of cached contents, hashed once per version. */
  private readonly digests = new WeakMap<FileContents, string>();

  constructor(options: FilesystemProviderOptions) {
    this.options = options;
    this.root = path.resolve(options.root);
    const uris = (this.uris = new FolderUris(options.uriPrefix));
    const prefix = (this.uriPrefix = uris.prefix);
    this.uriTemplate = uris.template;
    this.readTimeoutMs = readTimeoutOf(options.readTimeoutMs);
    const fs = options.fs ?? nodeFs;
    const { pool, stalls } = readersOf(options, fs === nodeFs, this.readTimeoutMs);
    this.stalls = stalls;
    this.fs = options.settleMs === undefined ? fs : { ...fs, settleMs: options.settleMs };
    this.parts = new FileParts({
      prefix,
      ...(options.partBytes !== undefined ? { partBytes: options.partBytes } : {}),
      fs: this.fs,
      containment: () => this.containment(),
      stat: (relative) => this.stat(relative),
      streamLimits: { readTimeoutMs: this.readTimeoutMs, stalls },
    });
    this.partsTemplate = this.parts.template;
    this.visibility = {
      hidden: options.hidden ?? false,
      ignore: new Set(options.ignore ?? ['node_modules']),
    };
    const freshness = (this.freshness = new FolderFreshness({
      watch: options.watch ?? false,
      debounceMs: options.watchDebounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS,
      visibility: this.visibility,
      servers: this.servers,
      uriOf: (relative) => this.uriOf(relative),
      pathOf: (uri) => this.pathOf(uri),
      fingerprint: async (relative) =>
        fingerprintOfOutcome(
          await this.contents(relative, FINGERPRINT_MAX_WIRE_BYTES),
          this.digests,
        ),
      dropCached: (relative) => this.dropCached(relative),
      fallbackRescanMs: options.rescanMs ?? 2000,
      folderName: this.root,
      onWarning: options.onWarning,
    }));
    this.source = new FileSource({
      fs: this.fs,
      within: () => this.within as Containment,
      cacheBytes: options.cacheBytes,
      watch: freshness,
      ttlMs: options.resolveTtlMs,
      maxEntries: options.maxResolvedPaths,
      listed: (relative) => this.listing?.index.get(relative),
      pool,
      streamLimits: { readTimeoutMs: this.readTimeoutMs, stalls: this.stalls },
    });
  }

  /**
   * Resolves the root and starts its first walk in the background; resolves once the root is
   * known to be a folder (rejects if it is not). Reads, lists and completion work from then on.
   */
  open(): Promise<void> {
    if (!this.opening) {
      const opening = (this.opening = this.start());
      for (const c of this.companions)
        void opening.then(
          () => c.opened?.(),
          () => undefined,
        );
    }
    return this.opening;
  }

  /** Resolves once the folder is open and walked once ({@link open}, then the whole first walk). */
  async ready(): Promise<void> {
    await this.open();
    await (this.listing as FolderListing).walked();
  }

  /** How far the listing is: complete or still walked, and whether `maxFiles` cut it. */
  get listingState(): ListingState {
    const maxFiles = this.options.maxFiles ?? DEFAULT_MAX_FILES;
    return this.listing?.state ?? { complete: false, files: 0, cut: false, maxFiles };
  }

  private async start(): Promise<void> {
    const real = await folderRoot(this.fs, this.root);
    const refuseHardLinks = this.options.refuseHardLinks ?? false;
    this.within = { root: real, visibility: this.visibility, refuseHardLinks };
    this.listing = new FolderListing({
      fs: this.fs,
      root: real,
      visibility: this.visibility,
      provider: this.options,
      uriOf: (rel) => this.uris.listedUri(rel),
      freshness: this.freshness,
      servers: this.servers,
      onGrow: (files) => this.views.extend(files),
      companions: this.companions,
    });
    this.started = true;
    this.listing.begin();
  }

  /** The URI of a root-relative path ({@link FolderUris.uriOf}: `notes[1].md` is `file:///notes%5B1%5D.md`). */
  uriOf(relative: string): string {
    return this.uris.uriOf(relative);
  }

  /** The `length` of a part URI that gives none ({@link FilesystemProviderOptions.partBytes}). */
  get partBytes(): number {
    return this.parts.partBytes;
  }

  /** The URI of a part: `partUri('big.log', { offset: 0, length: 1048576 })` is `file:///big.log?offset=0&length=1048576`. */
  partUri(relative: string, part: { offset: number; length: number; version?: string }): string {
    return this.parts.uri(relative, part);
  }

  /** The first part's URI of a file that cannot fit `capBytes` (`ctx.capBytes`) whole, from its size and type. */
  firstPartFor(
    file: { path: string; size: number; mimeType?: string },
    capBytes: number,
  ): string | undefined {
    return this.parts.firstIfTooLarge(file, capBytes);
  }

  /** The root-relative path a URI names, decoded and checked; undefined if it is not ours or unsafe. */
  pathOf(uri: string): string | undefined {
    return this.uris.pathOf(uri);
  }

  /** The served files, sorted by path (one frozen list per listing; stale: walked again). */
  async files(): Promise<readonly FileInfo[]> {
    return this.views.filesOf((await this.freshIndex()).files);
  }

  /** One listed file, from the current listing (no I/O beyond a stale-listing walk). */
  async file(relative: string): Promise<FileInfo | undefined> {
    return (await this.freshIndex()).get(relative);
  }

  /** One file of the listing as it is now, never walking a stale one. */
  listed(relative: string): FileInfo | undefined {
    return this.listing?.index.get(relative);
  }

  /** `resources/list` entries: uri, name (the relative path), mimeType, size, lastModified. */
  async list(): Promise<ListedResource[]> {
    return this.views.resourcesOf((await this.freshIndex()).files);
  }

  /**
   * Paths that start with `prefix`, then paths that contain it (case-insensitive). While the
   * first walk runs, from the files walked so far, with `hasMore` (more may come).
   */
  async complete(prefix: string): Promise<PathCompletion> {
    const index = await this.freshIndex();
    const found = completePaths(this.views.pathsOf(index.files), prefix);
    return index.partial ? { ...found, hasMore: true } : found;
  }

  /**
   * Size and type of a file without reading it; undefined when a read would not serve it
   * (missing, hidden, refused, or unreadable: never told apart). With `capBytes`, a file too
   * large to read whole under it also gets its `firstPart` ({@link firstPartFor}).
   */
  async stat(relative: string, capBytes?: number): Promise<ResourceStat | undefined> {
    await this.open();
    const stats = await this.source.stat(relative);
    if (!stats) return undefined;
    const { size } = stats;
    const mimeType = this.listing?.index.get(relative)?.mimeType ?? mimeFromName(relative);
    const stat = mimeType === undefined ? { size } : { size, mimeType };
    const firstPart =
      capBytes === undefined ? undefined : this.firstPartFor({ ...stat, path: relative }, capBytes);
    return firstPart === undefined ? stat : { ...stat, firstPart };
  }

  /**
   * The encoded contents of a file, from the cache when it did not change. `limitBytes` bounds
   * the wire size of the text or blob: a file over it is not read. `control` bounds a read
   * further (a search's budget: raw bytes, a checkpoint between the steps of a large read).
   */
  async contents(
    relative: string,
    limitBytes = Number.POSITIVE_INFINITY,
    control: ReadControl = {},
  ): Promise<ContentsOutcome> {
    await this.open();
    return this.source.contents(relative, limitBytes, control);
  }

  /** Hits, misses and bytes of the contents cache. */
  cacheStats(): CacheStats {
    return this.source.cacheStats();
  }

  /**
   * Registers the `file:///{+path}` template on a server (list, completion of `path`, stat so
   * that results link large files unread, read) and the parts template {@link partsTemplate}
   * (completion, stat, read of one part). Returns a function that removes both.
   */
  register(server: McpServer): () => void {
    this.servers.add(server);
    const unattach = this.freshness.register(server);
    const unfollow = followChanges(server, {
      watching: () => this.freshness.watching,
      pathOf: (uri) => this.pathOf(uri),
      markStale: () => this.listing?.markStale(), // before the first walk: nothing to redo
      dropCached: (relative) => this.dropCached(relative),
    });
    const remove = registerFileResources(server, {
      root: this.root,
      uriTemplate: this.uriTemplate,
      parts: this.parts,
      name: this.options.name ?? 'files',
      description: this.options.description,
      readTimeoutMs: this.readTimeoutMs,
      stalls: this.stalls,
      list: () => this.list(),
      complete: (prefix) => this.complete(prefix),
      stat: (relative, capBytes) => this.stat(relative, capBytes),
      // Where the writer streams (HTTP), an uncached blob is sent from the file as it is read.
      read: (relative, limit, streams) =>
        this.started
          ? this.source.whole(relative, limit, streams)
          : this.open().then(() => this.source.whole(relative, limit, streams)),
      noteRead: (relative, version) => this.freshness.noteRead(relative, version),
    });
    return () => {
      remove();
      unattach();
      unfollow();
      this.servers.delete(server);
    };
  }

  /** Walks the folder now and notifies registered servers of what changed (watched or not). */
  async rescan(): Promise<IndexDiff> {
    await this.ready();
    return this.freshness.rescan((this.listing as FolderListing).index);
  }

  /**
   * Sees every event of the folder watch as it comes, before the debounce: `path` is the
   * root-relative file or directory the platform named (undefined: not known where).
   */
  onFolderChange(listener: FolderChangeListener): () => void {
    return this.freshness.subscribe(listener);
  }

  /** Whether the folder's watch is running (not with `watch: false`, nor once it failed). */
  get watching(): boolean {
    return this.freshness.watching;
  }

  /** Resolves once every change watched so far is walked and announced. */
  async settled(): Promise<void> {
    await this.ready();
    await this.freshness.settled();
  }

  /**
   * Stops watching, forgets resolutions (nothing reports a change to them any more), empties the
   * contents cache and stops the read workers; the provider still serves, listing on demand.
   * Resolves once what serves beside it is closed too (its search index saved, with `indexDir`).
   */
  async close(): Promise<void> {
    this.freshness.close();
    this.source.clear();
    await Promise.all([...this.companions].map(async (c) => c.closed?.()));
  }

  /** Serves the folder beside this provider ({@link ListingCompanion}); told once open. */
  attach(companion: ListingCompanion): void {
    this.companions.add(companion);
    void this.opening?.then(
      () => companion.opened?.(),
      () => undefined,
    );
  }

  /** The file system given as `fs`, if any (undefined: node's). */
  get ownFs(): ProviderFs | undefined {
    return this.options.fs === nodeFs ? undefined : this.options.fs;
  }

  /** The root (real path) and the rules of what is served below it, once open. */
  async containment(): Promise<Containment> {
    await this.open();
    return this.within as Containment;
  }

  private async freshIndex(): Promise<FileIndex> {
    await this.open();
    return (this.listing as FolderListing).fresh();
  }

  /** Drops what is remembered of a root-relative path (file or folder), or of all (undefined). */
  private dropCached(relative: string | undefined): void {
    if (this.within) this.source.drop(relative);
  }
}

/** Creates a filesystem provider; call `register(server)`, then `open()` (or `ready()`). */
export function createFilesystemProvider(options: FilesystemProviderOptions): FilesystemProvider {
  return new FilesystemProvider(options);
}
