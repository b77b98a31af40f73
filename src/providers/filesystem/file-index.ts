/** The provider's view of its folder: a sorted, stat-only walk, refreshed on demand. */
import type { Dirent } from 'node:fs';
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
  /** The URI it is listed and read under. */
  readonly uri: string;
  readonly size: number;
  readonly mtimeMs: number;
  /**
   * The inode and the status-change time: with size and mtime, the file's version (a rewrite
   * that keeps size and mtime, `cp -p` or a rename over it, still changes one of them).
   */
  readonly ino: number;
  readonly ctimeMs: number;
  readonly mimeType: string;
}

/** How far a walk got; reported after each step (a directory read, a batch of files stat'ed). */
export interface IndexProgress {
  files: number;
  directories: number;
  /** Bytes of the files listed so far (their sizes: nothing is read). */
  bytes: number;
  /** True for the folder's first walk, the one a fresh listing is served from as it goes. */
  first: boolean;
  /** True on the last report of a walk. */
  done: boolean;
  /** On the last report: the walk stopped at `maxFiles`, with more files left unlisted. */
  cut?: boolean;
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
  /**
   * The URI a file is listed under; undefined leaves the file out (e.g. a path whose URI would
   * not map back to it).
   */
  uriOf: (relative: string) => string | undefined;
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

type Version = Pick<Verdict, 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>;

function sameVersion(a: Version, b: Version): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** One name still to visit, in a directory already read. */
type Pending =
  | { rel: string; kind: 'dir'; link: false }
  | { rel: string; kind: 'file'; link: boolean; uri: string };
type PendingFile = Extract<Pending, { kind: 'file' }>;

/**
 * The sort key of a name among its siblings: a directory's name ends with `/`, so that visiting
 * siblings in key order visits every path in code-unit order (`a-b` < `a/x` < `a0`).
 */
function keyOf(name: string, dir: boolean): string {
  return dir ? `${name}/` : name;
}

/**
 * Walks the root depth-first without following directory symlinks; a file symlink is listed when
 * its target is a visible regular file inside the root. Hidden and ignored names are skipped.
 * Names are visited in code-unit order of the relative path, so files are found sorted: pages of
 * `resources/list` are stable, and the first walk's listing grows only at its end. The walk stops
 * once `maxFiles` files are listed: nothing beyond is stat'ed or sniffed. A file this process may
 * not read is left out ({@link canRead}: one `access`), so nothing lists a file a read answers
 * "not found" for. Types come from extensions; only unknown ones are sniffed (opened and checked
 * like a read). Both verdicts are kept by path and version (inode, size, mtime, ctime: a chmod
 * moves the ctime): an unchanged file is never checked nor sniffed twice.
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
  /** The last finished walk stopped at `maxFiles`. */
  private wasCut = false;
  /** When the last walk finished (ms since epoch), 0 before the first. */
  scannedAt = 0;

  constructor(private readonly options: FileIndexOptions) {}

  /**
   * The files of the last walk, sorted by path. Before any walk finished: the files the first
   * walk found so far, an array that only grows at its end (copy it to keep a snapshot).
   */
  get files(): readonly IndexedFile[] {
    return this.entries;
  }

  /** No walk finished yet: {@link files} is what the first walk found so far. */
  get partial(): boolean {
    return this.scannedAt === 0;
  }

  /** The last finished walk stopped at `maxFiles` with files left unlisted. */
  get cut(): boolean {
    return this.wasCut;
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
    const { maxFiles, onProgress } = this.options;
    const first = this.scannedAt === 0;
    const found: IndexedFile[] = [];
    const next = new Map<string, IndexedFile>();
    // The first walk is served as it goes: its files and paths are the listing from the start.
    if (first) {
      this.entries = found;
      this.byKey = next;
    }
    const dirs: string[] = [];
    // Popped from the end: pushed in reverse path order.
    const stack: Pending[] = [{ rel: '', kind: 'dir', link: false }];
    const known = new Map<string, Verdict>();
    let directories = 0;
    let bytes = 0;
    while (stack.length > 0 && found.length < maxFiles) {
      const top = stack[stack.length - 1] as Pending;
      if (top.kind === 'dir') {
        stack.pop();
        const children = await this.children(top.rel);
        if (children === undefined) continue;
        directories++;
        if (top.rel !== '') dirs.push(top.rel);
        for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Pending);
      } else {
        // A bounded number of stats (and sniffs) at once, and never more than the listing still
        // has room for: a huge directory must neither exhaust handles nor cost a stat per file.
        const batch: PendingFile[] = [];
        const room = Math.min(CONCURRENCY, maxFiles - found.length);
        while (batch.length < room && stack[stack.length - 1]?.kind === 'file')
          batch.push(stack.pop() as PendingFile);
        const entries = await Promise.all(
          batch.map((c) => this.entry(c.rel, c.uri, c.link, known)),
        );
        for (const file of entries) {
          if (!file) continue;
          found.push(file);
          next.set(file.path, file);
          bytes += file.size;
        }
      }
      onProgress?.({ files: found.length, directories, bytes, first, done: false });
    }
    const cut = stack.length > 0;
    if (cut) {
      const count = maxFiles.toLocaleString('en-US');
      this.options.onWarning?.(
        `the folder has more than ${count} files: only the first ${count} in path order are listed ` +
          `(maxFiles, --max-files); the others are still read by path`,
      );
    }
    onProgress?.({ files: found.length, directories, bytes, first, done: true, cut });
    const diff = first
      ? { added: found.map((f) => f.path), removed: [], changed: [] }
      : this.diff(found, known);
    const before = this.byKey;
    this.entries = found;
    this.dirs = dirs;
    this.byKey = next;
    this.known = known;
    this.wasCut = cut;
    this.scannedAt = Date.now();
    if (!first) this.options.onDiff?.(diff, before);
    return diff;
  }

  /** The visible names of a directory, in path order; undefined when it cannot be reached. */
  private async children(dir: string): Promise<Pending[] | undefined> {
    const { fs, root, visibility } = this.options;
    let dirents: Dirent[];
    try {
      dirents = await fs.readdir(path.join(root, dir), { withFileTypes: true });
    } catch (error) {
      if (isUnreachable(error)) return undefined;
      throw withoutPath(error, 'cannot read a directory of the served folder');
    }
    const keyed: Array<{ key: string; item: Pending }> = [];
    for (const d of dirents) {
      if (!isVisibleName(d.name, visibility)) continue;
      const rel = dir === '' ? d.name : `${dir}/${d.name}`;
      if (d.isDirectory())
        keyed.push({ key: keyOf(d.name, true), item: { rel, kind: 'dir', link: false } });
      else if (d.isFile() || d.isSymbolicLink()) {
        const uri = this.options.uriOf(rel);
        if (uri === undefined) continue;
        keyed.push({
          key: keyOf(d.name, false),
          item: { rel, kind: 'file', link: d.isSymbolicLink(), uri },
        });
      }
    }
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return keyed.map((k) => k.item);
  }

  private async entry(
    rel: string,
    uri: string,
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
          ? (mimeFromName(rel) ?? (await sniffFile(fs, real, this.options)))
          : undefined;
        // A sniff that could not open the file (moved meanwhile) is tried again next walk.
        if (!readable || mimeType !== undefined)
          verdict = { ino: stats.ino, size, mtimeMs, ctimeMs: stats.ctimeMs, mimeType };
      }
      if (verdict === undefined) return undefined;
      const { mimeType } = verdict;
      if (mimeType === undefined) {
        known.set(rel, verdict);
        return undefined;
      }
      // The same object for the same version: what was built from it (its views) stays valid.
      const old = this.byKey.get(rel);
      const { ino, ctimeMs } = verdict;
      const file =
        old && sameVersion(old, verdict) && old.mimeType === mimeType && old.uri === uri
          ? old
          : Object.freeze({ path: rel, uri, size, mtimeMs, ino, ctimeMs, mimeType });
      // A listed file is its own verdict: one object a file, not two (100,000 fewer to keep).
      known.set(rel, file);
      return file;
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
