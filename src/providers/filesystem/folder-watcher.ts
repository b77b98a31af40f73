/** Change detection for a served folder, without walking what the listing skips. */
import { watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';

export interface FolderWatcherOptions {
  /** Called (often several times per change) when something under the folder may have changed. */
  onChange: () => void;
  /** Called when watching stopped working; the caller falls back to rescanning on demand. */
  onFailure: (why: string) => void;
  /** One native recursive watch (macOS, Windows) instead of one watch per directory. */
  recursive?: boolean;
  /** Most directories watched one by one (default 8192); beyond, watching stops. */
  maxDirectories?: number;
}

/**
 * Watches a folder. Where the platform watches trees natively (macOS, Windows) one recursive
 * watch is used; elsewhere (Linux: inotify) one watch per listed directory, kept in step with
 * the listing by `sync`, so that `.git` or `node_modules` are never walked nor watched.
 */
export class FolderWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly recursive: boolean;
  private failed = false;

  constructor(
    private readonly root: string,
    private readonly options: FolderWatcherOptions,
  ) {
    this.recursive =
      options.recursive ?? (process.platform === 'darwin' || process.platform === 'win32');
  }

  /** Whether changes are being watched. */
  get active(): boolean {
    return !this.failed && this.watchers.size > 0;
  }

  /** Watches the root and `directories` (relative, `/`-separated), and no others. */
  sync(directories: readonly string[]): void {
    if (this.failed) return;
    const wanted = this.recursive ? [''] : ['', ...directories];
    if (wanted.length > (this.options.maxDirectories ?? 8192)) {
      return this.fail(`more than ${this.options.maxDirectories ?? 8192} directories to watch`);
    }
    const keep = new Set(wanted);
    for (const [dir, watcher] of this.watchers) {
      if (!keep.has(dir)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const watcher = watch(
          path.join(this.root, ...dir.split('/')),
          { recursive: this.recursive, persistent: false },
          () => this.options.onChange(),
        );
        watcher.on('error', () => {
          // A watched directory that went away: the rescan this triggers drops it.
          watcher.close();
          this.watchers.delete(dir);
          if (dir === '') this.fail('the folder itself cannot be watched any more');
          else this.options.onChange();
        });
        this.watchers.set(dir, watcher);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (dir !== '' && (code === 'ENOENT' || code === 'ENOTDIR')) continue; // gone since the walk
        return this.fail((error as Error).message);
      }
    }
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private fail(why: string): void {
    this.failed = true;
    this.close();
    this.options.onFailure(why);
  }
}
