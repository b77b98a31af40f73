/** The provider's view of its folder: a sorted, stat-only walk, refreshed on demand. */
import type { Dirent, Stats } from 'node:fs';
import * as path from 'node:path';
import { mimeFromName } from '../../content/mime.js';
import { errorCode, isUnreachable, withoutPath, type ProviderFs } from './fs-types.js';
import { isInside, isVisibleName, isVisiblePath, toPosix, type Visibility } from './paths.js';
import { sniffFile } from './read-file.js';
import { canRead } from './resolve.js';

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
  /** Leave out regular files with more than one hard link. */
  refuseHardLinks?: boolean;
  /** Stop walking once this many files are listed. */
  maxFiles: number;
  /** Leaves a path out of the listing (e.g. one whose URI would not map back to it). */
  accept?: ((relative: string) => boolean) | undefined;
  onProgress?: ((progress: IndexProgress) => void) | undefined;
  onWarning?: ((message: string) => void) | undefined;
  /**
   * Sees what each walk but the first found changed, once per walk (however many callers
   * shared it), synchronously, when the listing already shows it; `before` is the listing
   * the walk replaced.
   */
  onDiff?: ((diff: IndexDiff, before: ReadonlyMap<string, IndexedFile>) => void) | undefined;
}

/** What changed between two walks. */
export interface IndexDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

const CONCURRENCY = 64;

/** One version of a regular file, and its type; no type: it may not be served (unreadable). */
interface Verdict {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  mimeType: string | undefined;
}

function sameVersion(v: Verdict, stats: Stats): boolean {
  return (
    v.ino === stats.ino &&
    v.size === stats.size &&
    v.mtimeMs === stats.mtimeMs &&
    v.ctimeMs === stats.ctimeMs
  );
}

function byPath(a: IndexedFile, b: IndexedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * Walks the root depth-first without following directory symlinks; file symlinks are listed
 * when their target is a visible regular file inside the root. Hidden and ignored names are
 * skipped. Entries are sorted by path (code-unit order), so pages of `resources/list` are stable.
 * The walk stops as soon as `maxFiles` files are listed: nothing beyond is stat'ed or sniffed.
 * A file this process may not read (permissions) is left out, so that the listing, search and
 * completion never name a file that a read answers "not found" for ({@link canRead}: one
 * `access` call). MIME types come from extensions; only files with an unknown extension have
 * their first bytes sniffed (opened and checked like a read). Both verdicts are kept, by path
 * and version (inode, size, mtime, ctime: a chmod moves the ctime), for the next walks: an
 * unchanged file is never checked nor sniffed twice.
 */
export class FileIndex {
  private entries: IndexedFile[] = [];
  private dirs: string[] = [];
  private byKey = new Map<string, IndexedFile>();
  /** What the last walk learned of each regular file, by path. */
  private known = new Map<string, Verdict>();
  private walking: Promise<IndexDiff> | undefined;
  /** The walk that starts after the one in flight, for callers that need a walk begun after their call. */
  private queued: Promise<IndexDiff> | undefined;
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

  /**
   * Walks the folder again (concurrent calls share one walk) and reports what changed. With
   * `fresh`, the walk starts after this call: a walk already in flight may have passed the
   * change the caller heard of, so one more follows it (shared by every fresh caller meanwhile).
   */
  refresh(fresh = false): Promise<IndexDiff> {
    if (fresh && this.walking) {
      this.queued ??= this.walking
        .catch(() => undefined)
        .then(() => {
          this.queued = undefined;
          return this.refresh();
        });
      return this.queued;
    }
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
    const known = new Map<string, Verdict>();
    let directories = 0;
    let truncated = false;
    while (stack.length > 0 && !truncated) {
      const dir = stack.pop() as string;
      let dirents: Dirent[];
      try {
        dirents = await fs.readdir(path.join(root, dir), { withFileTypes: true });
      } catch (error) {
        if (isUnreachable(error)) continue;
        throw withoutPath(error, 'cannot read a directory of the served folder');
      }
      directories++;
      if (dir !== '') dirs.push(dir);
      const candidates: Array<{ rel: string; link: boolean }> = [];
      for (const d of dirents) {
        if (!isVisibleName(d.name, visibility)) continue;
        const rel = dir === '' ? d.name : `${dir}/${d.name}`;
        if (d.isDirectory()) stack.push(rel);
        else if ((d.isFile() || d.isSymbolicLink()) && (this.options.accept?.(rel) ?? true))
          candidates.push({ rel, link: d.isSymbolicLink() });
      }
      // A bounded number of stats (and sniffs) at once, and never more than the listing still
      // has room for: a huge directory must neither exhaust handles nor cost a stat per file.
      let next = 0;
      while (next < candidates.length && found.length < maxFiles) {
        const take = Math.min(CONCURRENCY, maxFiles - found.length);
        const batch = candidates.slice(next, next + take);
        next += batch.length;
        const entries = await Promise.all(batch.map((c) => this.entry(c.rel, c.link, known)));
        for (const file of entries) if (file) found.push(file);
      }
      if (found.length >= maxFiles && (next < candidates.length || stack.length > 0)) {
        truncated = true;
        this.options.onWarning?.(
          `the folder has more than ${maxFiles} files; the walk stopped once ${maxFiles} were listed (maxFiles)`,
        );
      }
      onProgress?.({ files: found.length, directories, done: false });
    }
    found.sort(byPath);
    onProgress?.({ files: found.length, directories, done: true });
    const diff = this.diff(found, known);
    const first = this.scannedAt === 0;
    const before = this.byKey;
    this.entries = found;
    this.dirs = dirs;
    this.byKey = new Map(found.map((f) => [f.path, f]));
    this.known = known;
    this.scannedAt = Date.now();
    if (!first) this.options.onDiff?.(diff, before);
    return diff;
  }

  private async entry(
    rel: string,
    isLink: boolean,
    known: Map<string, Verdict>,
  ): Promise<IndexedFile | undefined> {
    const { fs, root, visibility, refuseHardLinks } = this.options;
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
      if (refuseHardLinks === true && stats.nlink > 1) return undefined;
      const { size, mtimeMs } = stats;
      const before = this.known.get(rel);
      let verdict = before !== undefined && sameVersion(before, stats) ? before : undefined;
      if (verdict === undefined) {
        const readable = await canRead(fs, real);
        const mimeType = readable
          ? (mimeFromName(rel) ??
            (await sniffFile(fs, real, {
              root,
              visibility,
              refuseHardLinks: refuseHardLinks ?? false,
            })))
          : undefined;
        // A sniff that could not open the file (moved meanwhile) is tried again next walk.
        if (!readable || mimeType !== undefined)
          verdict = { ino: stats.ino, size, mtimeMs, ctimeMs: stats.ctimeMs, mimeType };
      }
      if (verdict === undefined) return undefined;
      known.set(rel, verdict);
      const { mimeType } = verdict;
      return mimeType === undefined ? undefined : { path: rel, size, mtimeMs, mimeType };
    } catch (error) {
      const code = errorCode(error);
      if (isUnreachable(error) || code === 'ELOOP' || code === 'EPERM') return undefined;
      throw withoutPath(error, 'cannot list a file of the served folder');
    }
  }

  /**
   * Added, removed and changed paths. A file changed when its version did: size, mtime, and also
   * inode and ctime, so that a rewrite that restores size and mtime (`cp -p`, `rsync -t`) counts.
   */
  private diff(next: readonly IndexedFile[], known: ReadonlyMap<string, Verdict>): IndexDiff {
    const added: string[] = [];
    const changed: string[] = [];
    const seen = new Set<string>();
    for (const file of next) {
      seen.add(file.path);
      const old = this.byKey.get(file.path);
      if (!old) added.push(file.path);
      else if (
        old.size !== file.size ||
        old.mtimeMs !== file.mtimeMs ||
        this.known.get(file.path)?.ino !== known.get(file.path)?.ino ||
        this.known.get(file.path)?.ctimeMs !== known.get(file.path)?.ctimeMs
      )
        changed.push(file.path);
    }
    const removed = this.entries.filter((f) => !seen.has(f.path)).map((f) => f.path);
    return { added, removed, changed };
  }
}
