/**
 * When the listing of a served folder is walked: the first walk runs in the background (the
 * provider serves at once, lists from what is walked so far), later walks when the listing is
 * stale or old.
 */
import { McpKitError } from '../../errors/mcpkit-error.js';
import type { McpServer } from '../../server/index.js';
import { FileIndex, type IndexDiff, type IndexedFile } from './file-index.js';
import type { FolderFreshness } from './folder-freshness.js';
import type { ProviderFs } from './fs-types.js';
import type { Visibility } from './paths.js';
import type { FilesystemProviderOptions } from './provider-options.js';

/** How long a listing waits for the first walk before it answers from what is walked so far. */
export const DEFAULT_WALK_WAIT_MS = 300;

/** Most files listed, by default (`maxFiles`). */
export const DEFAULT_MAX_FILES = 1_000_000;

/** How far the listing is: what `resources/list`, completion and the tools answer from. */
export interface ListingState {
  /** The first walk finished: the listing holds every file (up to `maxFiles`). */
  complete: boolean;
  /** Files listed so far. */
  files: number;
  /** The last walk stopped at `maxFiles`: files past the first `maxFiles` in path order are not listed. */
  cut: boolean;
  maxFiles: number;
}

export interface FolderListingOptions {
  fs: ProviderFs;
  /** The root as a real path. */
  root: string;
  visibility: Visibility;
  provider: FilesystemProviderOptions;
  /** A file's URI; undefined when it would not map back to its path (the file is not listed). */
  uriOf: (relative: string) => string | undefined;
  freshness: FolderFreshness;
  servers: ReadonlySet<McpServer>;
  /** The first walk's listing grew (it only grows at its end): build what is built from it. */
  onGrow: (files: readonly IndexedFile[]) => void;
  /** What serves the folder beside the provider: told as the listing grows and changes. */
  companions: ReadonlySet<ListingCompanion>;
}

/** What serves a folder beside its provider (its search index), told of its listing. */
export interface ListingCompanion {
  opened?(): void;
  /** The first walk's listing grew (it only grows at its end). */
  grew?(files: readonly IndexedFile[]): void;
  /** A later walk found these changes; `find` looks a path up in the new listing. */
  changed?(diff: IndexDiff, find: (relative: string) => IndexedFile | undefined): void;
  /** The provider closed; what it returns is awaited by the provider's `close()`. */
  closed?(): void | Promise<void>;
}

/** The real path of a folder to serve; rejects with ROOT_NOT_FOUND when it is not a folder. */
export async function folderRoot(fs: ProviderFs, root: string): Promise<string> {
  try {
    const real = await fs.realpath(root);
    if (!(await fs.stat(real)).isDirectory()) throw new Error('not a directory');
    return real;
  } catch (error) {
    throw new McpKitError('ROOT_NOT_FOUND', `cannot serve ${root}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export class FolderListing {
  readonly index: FileIndex;
  readonly maxFiles: number;
  private readonly walkWaitMs: number;
  private first: Promise<void> | undefined;
  /** A listing was answered before the first walk finished. */
  private servedPartial = false;
  /** Unwatched, a change event said the folder changed: the next listing walks it again. */
  private stale = false;
  /** That walk, which every listing asked for meanwhile waits for. */
  private staleWalk: Promise<unknown> | undefined;

  constructor(private readonly options: FolderListingOptions) {
    const { provider, freshness } = options;
    this.maxFiles = provider.maxFiles ?? DEFAULT_MAX_FILES;
    this.walkWaitMs = provider.walkWaitMs ?? DEFAULT_WALK_WAIT_MS;
    this.index = new FileIndex({
      fs: options.fs,
      root: options.root,
      visibility: options.visibility,
      refuseHardLinks: provider.refuseHardLinks ?? false,
      maxFiles: this.maxFiles,
      uriOf: options.uriOf,
      onProgress: (progress) => {
        if (progress.first) {
          options.onGrow(this.index.files);
          for (const c of options.companions) c.grew?.(this.index.files);
        }
        provider.onProgress?.(progress);
      },
      onWarning: provider.onWarning,
      onDiff: (diff, before) => {
        freshness.onDiff(diff, before);
        const find = (relative: string) => this.index.get(relative);
        for (const c of options.companions) c.changed?.(diff, find);
      },
    });
    freshness.track(this.index);
  }

  /** Starts the first walk in the background; a failure is a warning (the next listing tries again). */
  begin(): void {
    this.walked().catch((error: unknown) => this.warnFailed(error));
  }

  private warnFailed(error: unknown): void {
    this.options.provider.onWarning?.(
      `listing the folder failed (${(error as Error).message}); the next request walks it again`,
    );
  }

  /**
   * Resolves once the first walk finished (a failed one is walked again) and, when the folder
   * is watched, once the watch is set and a walk after it caught up with what changed meanwhile.
   */
  walked(): Promise<void> {
    this.first ??= this.index.refresh().then(
      async () => {
        const watched = this.options.freshness.start(this.options.root, this.index);
        // A client that listed part of the folder lists again: the rest is there now. (After
        // the watch began: unwatched, the event would mark this very listing stale.)
        if (this.servedPartial && this.options.provider.watch === true) {
          for (const server of this.options.servers) server.notifyListChanged('resources');
        }
        await watched;
        // The watch starts now: what changed in folders already walked went unseen (a client
        // may be served during the walk). One more walk (stats only: nothing is sniffed again)
        // finds and announces it.
        if (this.options.freshness.watching) {
          await this.index.refresh(true).catch((error: unknown) => this.warnFailed(error));
        }
      },
      (error: unknown) => {
        this.first = undefined;
        throw error;
      },
    );
    return this.first;
  }

  markStale(): void {
    this.stale = true;
  }

  get state(): ListingState {
    const { index, maxFiles } = this;
    return { complete: !index.partial, files: index.files.length, cut: index.cut, maxFiles };
  }

  /**
   * The index to answer a listing from. During the first walk: what it found so far, after
   * waiting for it at most `walkWaitMs` (a small folder is listed whole). Later: walked again
   * first when stale (a change event) or older than `maxAgeMs`.
   */
  async fresh(): Promise<FileIndex> {
    const { index } = this;
    if (index.partial) {
      await this.waitFirst();
      if (index.partial) {
        this.servedPartial = true;
        return index;
      }
    }
    // What the walk finds is announced by the freshness (when the folder is watched). A stale
    // listing walks anew: one in flight may have started before the change was made.
    if (this.stale) {
      this.stale = false;
      const walk = index.refresh(true).finally(() => {
        if (this.staleWalk === walk) this.staleWalk = undefined;
      });
      this.staleWalk = walk;
    }
    if (this.staleWalk) await this.staleWalk;
    else if (Date.now() - index.scannedAt > this.maxAgeMs()) await index.refresh();
    return index;
  }

  /** How old the listing may get before a listing walks the folder again (ms). */
  private maxAgeMs(): number {
    return this.options.provider.rescanMs ?? (this.options.freshness.watching ? 30_000 : 2_000);
  }

  /** Waits for the first walk, at most `walkWaitMs`; rethrows its failure. */
  private async waitFirst(): Promise<void> {
    const walk = this.walked();
    const wait = this.walkWaitMs;
    if (wait <= 0) {
      walk.catch(() => undefined); // the listing answers; begin() reported the failure
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, wait);
      timer.unref?.();
    });
    try {
      await Promise.race([walk, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
