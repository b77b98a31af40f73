/** The provider's view of its folder: a sorted, stat-only walk, refreshed on demand. */
import type { Dirent } from 'node:fs';
import * as path from 'node:path';
import { mimeFromName } from '../../content/mime.js';
import { isMissing, type ProviderFs } from './fs-types.js';
import { isInside, isVisibleName, isVisiblePath, toPosix, type Visibility } from './paths.js';
import { sniffFile } from './read-file.js';

/** One served file. */
export interface IndexedFile {
  /** Relative to the root, `/`-separated: the listed name and the template's `path`. */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly mimeType: string;
}

/** How far a walk got; reported after each directory. */
export interface IndexProgress {
  files: number;
  directories: number;
  /** True on the last report of a walk. */
  done: boolean;
}

export interface FileIndexOptions {
  fs: ProviderFs;
  /** The root as a real path. */
  root: string;
  visibility: Visibility;
  /** Stop listing after this many files (default 100,000). */
  maxFiles: number;
  /** Leaves a path out of the listing (e.g. one whose URI would not map back to it). */
  accept?: ((relative: string) => boolean) | undefined;
  onProgress?: ((progress: IndexProgress) => void) | undefined;
  onWarning?: ((message: string) => void) | undefined;
}

/** What changed between two walks. */
export interface IndexDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

const CONCURRENCY = 64;

function byPath(a: IndexedFile, b: IndexedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * Walks the root depth-first without following directory symlinks; file symlinks are listed
 * when their target is a visible regular file inside the root. Hidden and ignored names are
 * skipped. Entries are sorted by path (code-unit order), so pages of `resources/list` are stable.
 * MIME types come from extensions; only files with an unknown extension have their first bytes
 * sniffed, and that result is kept while size and mtime stay the same.
 */
export class FileIndex {
  private entries: IndexedFile[] = [];
  private dirs: string[] = [];
  private byKey = new Map<string, IndexedFile>();
  private walking: Promise<IndexDiff> | undefined;
  /** When the last walk finished (ms since epoch), 0 before the first. */
  scannedAt = 0;

  constructor(private readonly options: FileIndexOptions) {}

  /** The files of the last walk, sorted by path. */
  get files(): readonly IndexedFile[] {
    return this.entries;
  }

  /** The visible directories of the last walk (relative, without the root), for watching. */
  get directories(): readonly string[] {
    return this.dirs;
  }

  get(relative: string): IndexedFile | undefined {
    return this.byKey.get(relative);
  }

  /** Walks the folder again (concurrent calls share one walk) and reports what changed. */
  refresh(): Promise<IndexDiff> {
    this.walking ??= this.walk().finally(() => {
      this.walking = undefined;
    });
    return this.walking;
  }

  private async walk(): Promise<IndexDiff> {
    const { fs, root, visibility, maxFiles, onProgress } = this.options;
    const found: IndexedFile[] = [];
    const dirs: string[] = [];
    const stack = [''];
    let directories = 0;
    let truncated = false;
    while (stack.length > 0 && !truncated) {
      const dir = stack.pop() as string;
      let dirents: Dirent[];
      try {
        dirents = await fs.readdir(path.join(root, dir), { withFileTypes: true });
      } catch (error) {
        if (isMissing(error) || (error as { code?: unknown }).code === 'EACCES') continue;
        throw error;
      }
      directories++;
      if (dir !== '') dirs.push(dir);
      const visible = dirents.filter((d) => isVisibleName(d.name, visibility));
      // A bounded number of stats (and sniffs) at once: a huge directory must not exhaust handles.
      for (let i = 0; i < visible.length; i += CONCURRENCY) {
        const batch = visible.slice(i, i + CONCURRENCY).map(async (d) => {
          const rel = dir === '' ? d.name : `${dir}/${d.name}`;
          if (d.isDirectory()) {
            stack.push(rel);
            return undefined;
          }
          if (!d.isFile() && !d.isSymbolicLink()) return undefined;
          if (this.options.accept && !this.options.accept(rel)) return undefined;
          return this.entry(rel, d.isSymbolicLink());
        });
        for (const file of await Promise.all(batch)) if (file) found.push(file);
      }
      if (found.length > maxFiles) {
        truncated = true;
        found.length = maxFiles;
        this.options.onWarning?.(
          `the folder has more than ${maxFiles} files; only ${maxFiles} are listed (maxFiles)`,
        );
      }
      onProgress?.({ files: found.length, directories, done: false });
    }
    found.sort(byPath);
    onProgress?.({ files: found.length, directories, done: true });
    const diff = this.diff(found);
    this.entries = found;
    this.dirs = dirs;
    this.byKey = new Map(found.map((f) => [f.path, f]));
    this.scannedAt = Date.now();
    return diff;
  }

  private async entry(rel: string, isLink: boolean): Promise<IndexedFile | undefined> {
    const { fs, root, visibility } = this.options;
    const absolute = path.join(root, ...rel.split('/'));
    try {
      let real = absolute;
      if (isLink) {
        real = await fs.realpath(absolute);
        if (!isInside(root, real) || !isVisiblePath(toPosix(path.relative(root, real)), visibility))
          return undefined;
      }
      const stats = await fs.stat(real);
      if (!stats.isFile()) return undefined;
      const known = this.byKey.get(rel);
      const same =
        known !== undefined && known.size === stats.size && known.mtimeMs === stats.mtimeMs;
      const mimeType = same
        ? known.mimeType
        : (mimeFromName(rel) ?? (await sniffFile(fs, real, stats.size)));
      return { path: rel, size: stats.size, mtimeMs: stats.mtimeMs, mimeType };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (isMissing(error) || code === 'EACCES' || code === 'ELOOP' || code === 'EPERM')
        return undefined;
      throw error;
    }
  }

  private diff(next: readonly IndexedFile[]): IndexDiff {
    const added: string[] = [];
    const changed: string[] = [];
    const seen = new Set<string>();
    for (const file of next) {
      seen.add(file.path);
      const old = this.byKey.get(file.path);
      if (!old) added.push(file.path);
      else if (old.size !== file.size || old.mtimeMs !== file.mtimeMs) changed.push(file.path);
    }
    const removed = this.entries.filter((f) => !seen.has(f.path)).map((f) => f.path);
    return { added, removed, changed };
  }
}
