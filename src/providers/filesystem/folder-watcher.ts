/** Change detection for a served folder, without walking what the listing skips. */
import { watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import { toPosix } from './paths.js';

export interface FolderWatcherOptions {
  /**
   * Called (often several times per change) when something under the folder may have changed,
   * with the root-relative, `/`-separated path the platform named (a file, or a directory whose
   * entries changed); undefined when it named none.
   */
  onChange: (relative: string | undefined) => void;
  /** Called when watching stopped working; the caller falls back to rescanning on demand. */
  onFailure: (why: string) => void;
}

/** Most directories watched one by one; beyond, watching stops. */
export const MAX_WATCHED_DIRECTORIES = 8192;

/**
 * Watches a folder. Where the platform watches trees natively (macOS, Windows) one recursive
 * watch is used; elsewhere (Linux: inotify) one watch per listed directory, kept in step with
 * the listing by `sync`, so that `.git` or `node_modules` are never walked nor watched.
 */
export class FolderWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  /** One native recursive watch (macOS, Windows) instead of one watch per directory. */
  private readonly recursive = process.platform === 'darwin' || process.platform === 'win32';
  private failed = false;
  /** Watches lost so far (closed, failed, their directory gone). */
  private lost = 0;

  constructor(
    private readonly root: string,
    private readonly options: FolderWatcherOptions,
  ) {}

  /** Whether changes are being watched. */
  get active(): boolean {
    return !this.failed && this.watchers.size > 0;
  }

  /**
   * Changes whenever a watch is lost: while it stays the same, every watch that {@link covers}
   * saw is still in place, so every change below it since was reported.
   */
  get epoch(): number {
    return this.lost;
  }

  /** Whether a change to the entries of each of `dirs` (root-relative, `''` the root) is reported. */
  covers(dirs: readonly string[]): boolean {
    if (!this.active) return false;
    if (this.recursive) return true; // one watch over the whole tree
    for (const dir of dirs) if (!this.watchers.has(dir)) return false;
    return true;
  }

  /**
   * Watches the root and `directories` (relative, `/`-separated), and no others. Returns how
   * many directories are watched that were not before: what was written in one of them before
   * its watch began was seen by no watch.
   */
  sync(directories: readonly string[]): number {
    if (this.failed) return 0;
    const wanted = this.recursive ? [''] : ['', ...directories];
    if (wanted.length > MAX_WATCHED_DIRECTORIES) {
      this.fail(`more than ${MAX_WATCHED_DIRECTORIES} directories to watch`);
      return 0;
    }
    let added = 0;
    const keep = new Set(wanted);
    for (const [dir, watcher] of this.watchers) if (!keep.has(dir)) this.unwatch(dir, watcher);
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const watcher = watch(
          path.join(this.root, ...dir.split('/')),
          { recursive: this.recursive, persistent: false },
          (_event, name) => {
            const changed = relativeOf(dir, name);
            if (changed !== undefined) this.suspect(changed);
            this.options.onChange(changed);
          },
        );
        watcher.on('error', () => {
          // A watched directory that went away: the rescan this triggers drops it.
          this.unwatch(dir, watcher);
          if (dir === '') this.fail('the folder itself cannot be watched any more');
          else this.options.onChange(dir);
        });
        this.watchers.set(dir, watcher);
        added++;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (dir !== '' && (code === 'ENOENT' || code === 'ENOTDIR')) continue; // gone since the walk
        this.fail((error as Error).message);
        return 0;
      }
    }
    return added;
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.lost++;
  }

  /**
   * An event named a watched directory itself (removed, renamed, replaced): its watch may now
   * follow a directory that is gone, seeing nothing of the one at its path. It is dropped (and
   * the epoch moves); the walk the event triggers watches the path again.
   */
  private suspect(changed: string): void {
    const watcher = this.recursive ? undefined : this.watchers.get(changed);
    if (watcher) this.unwatch(changed, watcher);
  }

  /** Closes the watch of `dir`: a watch lost (the epoch moves). */
  private unwatch(dir: string, watcher: FSWatcher): void {
    watcher.close();
    this.watchers.delete(dir);
    this.lost++;
  }

  private fail(why: string): void {
    this.failed = true;
    this.close();
    this.options.onFailure(why);
  }
}

/** The root-relative path of an event's name under the watched `dir` (recursive: a relative path). */
function relativeOf(dir: string, name: string | null): string | undefined {
  if (name === null || name === '') return undefined;
  const rel = toPosix(name);
  return dir === '' ? rel : `${dir}/${rel}`;
}
