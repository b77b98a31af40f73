/**
 * Keeps what a served folder tells clients in step with the disk. One stream of watcher events
 * ({@link FolderChanges}) feeds the caches (dropped at once) and, debounced, the listing (walked
 * again) and the notifications: `list_changed` when files came or went, `resources/updated` for a
 * changed file. Reading a file to tell a touch from a change is done only for files listened to.
 */
import type { McpServer } from '../../server/index.js';
import { ContentBaselines, type FileVersion, type Fingerprint } from './content-baselines.js';
import { Debouncer } from './debouncer.js';
import type { FileIndex, IndexDiff, IndexedFile } from './file-index.js';
import { FolderChanges, type FolderChange, type FolderChangeListener } from './folder-changes.js';
import { FolderWatcher, MAX_WATCHED_DIRECTORIES } from './folder-watcher.js';
import type { WatchCoverage } from './path-records.js';
import { isVisiblePath, type Visibility } from './paths.js';

/** How long a folder must be quiet before its changes are announced, by default (ms). */
export const DEFAULT_WATCH_DEBOUNCE_MS = 100;

/** Directories given their watch in one turn of the event loop. */
const WATCH_SLICE = 200;

/** Files fingerprinted at once when several changed under a listener. */
const FINGERPRINT_CONCURRENCY = 8;

export interface FreshnessOptions {
  /** Watch the folder and announce changes (`watch` of the provider). */
  watch: boolean;
  debounceMs: number;
  visibility: Visibility;
  /** The servers the provider is registered on: where changes are announced. */
  servers: ReadonlySet<McpServer>;
  uriOf(relative: string): string;
  pathOf(uri: string): string | undefined;
  /** A fingerprint of a file's current contents, read as a client would read it. */
  fingerprint(relative: string): Promise<Fingerprint | undefined>;
  /** Drops what the caches hold of a root-relative path, or of everything (undefined). */
  dropCached(relative: string | undefined): void;
  /** How old the listing may get without a watch (for the warning when watching fails). */
  fallbackRescanMs: number;
  /** The folder as the user named it, for warnings. */
  folderName: string;
  onWarning?: ((message: string) => void) | undefined;
}

export class FolderFreshness implements WatchCoverage {
  /** Every watcher event, synchronously, before any debounce. */
  private readonly changes = new FolderChanges();
  private readonly baselines: ContentBaselines;
  private readonly debouncer: Debouncer;
  private watcher: FolderWatcher | undefined;
  private index: FileIndex | undefined;
  /** Explicit rescans in progress: they announce even when the folder is not watched. */
  private explicit = 0;
  /** Updates are announced in order, one diff after the other. */
  private announcing: Promise<void> = Promise.resolve();
  private closed = false;
  private paths: { from: readonly IndexedFile[]; paths: readonly string[] } | undefined;

  constructor(private readonly options: FreshnessOptions) {
    this.baselines = new ContentBaselines({
      uriOf: options.uriOf,
      pathOf: options.pathOf,
      // Before the first walk ends, a path not walked yet may be a file: fingerprint it (a
      // folder has none), rather than announce its every touch as a change.
      isListed: (relative) =>
        this.index === undefined || this.index.partial || this.index.get(relative) !== undefined,
      listed: () => this.listedPaths(),
      isAttached: (uri) => this.isAttached(uri),
      fingerprint: options.fingerprint,
    });
    this.debouncer = new Debouncer(() => this.flush(), options.debounceMs);
  }

  /** Whether the watch is running (it may have failed: then the listing is walked on demand). */
  get watching(): boolean {
    return this.watcher?.active === true;
  }

  /** See {@link WatchCoverage}: what a remembered resolution may trust the watch for. */
  coverage(dirs: readonly string[]): number | undefined {
    const watcher = this.watcher;
    return watcher !== undefined && !this.closed && watcher.covers(dirs)
      ? watcher.epoch
      : undefined;
  }

  /** The watch's epoch now; -1 (matching no coverage) without a watch. */
  get epoch(): number {
    return this.closed ? -1 : (this.watcher?.epoch ?? -1);
  }

  /** The listing, from before its first walk ends (the watch starts after it: {@link start}). */
  track(index: FileIndex): void {
    this.index = index;
  }

  /**
   * Starts watching (when asked) once the first walk is done; resolves once every directory it
   * found is watched (or the watch failed).
   */
  start(root: string, index: FileIndex): Promise<void> {
    this.index = index;
    if (!this.options.watch || this.closed) return Promise.resolve();
    this.changes.on((change) => this.onChange(change));
    this.watcher = new FolderWatcher(root, {
      onChange: (relative) => this.changes.emit({ path: relative }),
      onFailure: (why) =>
        this.options.onWarning?.(
          `not watching ${this.options.folderName} (${why}); the listing is refreshed when it is older than ${this.options.fallbackRescanMs} ms`,
        ),
    });
    return this.watchInSlices(index.directories);
  }

  /**
   * Watches the directories of the first walk, a slice at a time with a turn of the event loop
   * between slices: setting thousands of watches holds the loop for a few hundred ms. A directory
   * not watched yet is not trusted ({@link coverage}) meanwhile.
   */
  private async watchInSlices(dirs: readonly string[]): Promise<void> {
    // Past the watcher's limit, one call fails at once, before any watch is set.
    if (dirs.length < MAX_WATCHED_DIRECTORIES) {
      for (let n = WATCH_SLICE; n < dirs.length; n += WATCH_SLICE) {
        if (this.closed || !this.watcher) return;
        this.watcher.sync(dirs.slice(0, n));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (!this.closed) this.watcher?.sync(dirs);
  }

  /** Sees every watcher event (see {@link FolderChanges}); returns a function that stops it. */
  subscribe(listener: FolderChangeListener): () => void {
    return this.changes.on(listener);
  }

  /**
   * Ties a server's listeners to the fingerprints (attach: set up; detach: dropped). Without a
   * watch nothing here announces changes, so listeners (here or on other instances) cost nothing.
   */
  register(server: McpServer): () => void {
    if (!this.options.watch) return () => undefined;
    return server.onAttach({
      attach: (uri) => this.baselines.attach(uri),
      detach: (uri) => this.baselines.detach(uri),
    });
  }

  /**
   * A read of `relative` served `version`: unless it is the one its listeners' fingerprint was
   * taken from, a touch after it is announced (the reader may hold a version in between).
   */
  noteRead(relative: string, version: FileVersion | undefined): void {
    this.baselines.noteRead(relative, version);
  }

  /** What each walk of the listing found changed (the index's `onDiff`), and what it listed before. */
  onDiff(diff: IndexDiff, before: ReadonlyMap<string, IndexedFile>): void {
    // A directory that just got its watch may have gained files before it: one more walk.
    if (this.index && this.watcher && this.watcher.sync(this.index.directories) > 0) {
      this.debouncer.trigger();
    }
    if (this.closed || (!this.options.watch && this.explicit === 0)) return;
    for (const gone of diff.removed) this.baselines.forget(gone);
    if (diff.added.length + diff.removed.length > 0) {
      for (const server of this.options.servers) server.notifyListChanged('resources');
    }
    this.announcing = this.announcing
      .then(() => this.announceUpdates(diff, before))
      .catch((error: unknown) =>
        this.options.onWarning?.(`announcing changes failed: ${(error as Error).message}`),
      );
  }

  /** Walks the folder now and announces what changed, watched or not. */
  async rescan(index: FileIndex): Promise<IndexDiff> {
    this.explicit++;
    try {
      const diff = await index.refresh(true);
      await this.announcing;
      return diff;
    } finally {
      this.explicit--;
    }
  }

  /** Resolves once no change is waiting to be walked or announced (tests). */
  async settled(): Promise<void> {
    await this.debouncer.idle();
    await this.announcing;
  }

  close(): void {
    this.closed = true;
    this.debouncer.close();
    this.watcher?.close();
    this.watcher = undefined;
    this.changes.clear();
    this.baselines.clear();
  }

  private onChange(change: FolderChange): void {
    const { path } = change;
    // Dot-files, .git and node_modules are never listed: an editor's swap file changes nothing.
    if (path !== undefined && !isVisiblePath(path, this.options.visibility)) return;
    // At once, before the debounce: a read after this event resolves the path again.
    this.options.dropCached(path);
    this.debouncer.trigger();
  }

  private async flush(): Promise<void> {
    const index = this.index;
    if (!index || this.closed) return;
    try {
      await index.refresh(true);
      await this.announcing;
    } catch (error) {
      this.options.onWarning?.(`rescan failed: ${(error as Error).message}`);
    }
  }

  /** The listing's paths in its (sorted) order, built once per walk. */
  private listedPaths(): readonly string[] {
    const files = this.index?.files;
    if (!files) return [];
    // The first walk's listing grows while it runs: the same array, longer.
    if (this.paths?.from !== files || this.paths.paths.length !== files.length)
      this.paths = { from: files, paths: files.map((f) => f.path) };
    return this.paths.paths;
  }

  private isAttached(uri: string): boolean {
    for (const server of this.options.servers) if (server.isAttached(uri)) return true;
    return false;
  }

  private publish(uri: string): void {
    for (const server of this.options.servers) server.notifyResourceUpdated(uri);
  }

  /**
   * A changed file is announced from its size and times alone when nobody here listens to it
   * (no read), and after a fingerprint when someone does: a touch sends nothing. A file that came
   * or went gets `list_changed`, and an update too when someone listens to its URI.
   */
  private async announceUpdates(
    diff: IndexDiff,
    before: ReadonlyMap<string, IndexedFile>,
  ): Promise<void> {
    if (this.closed) return;
    const checks: string[] = [];
    for (const file of diff.changed) {
      if (this.isAttached(this.options.uriOf(file))) checks.push(file);
      else this.publish(this.options.uriOf(file));
    }
    for (const file of diff.removed) {
      const uri = this.options.uriOf(file);
      if (this.isAttached(uri)) this.publish(uri);
    }
    for (const file of diff.added) if (this.isAttached(this.options.uriOf(file))) checks.push(file);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < checks.length) {
        const file = checks[next++] as string;
        const same = await this.baselines.unchanged(file, before.get(file));
        if (!same && !this.closed) this.publish(this.options.uriOf(file));
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(FINGERPRINT_CONCURRENCY, checks.length) }, worker),
    );
  }
}
