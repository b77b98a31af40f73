/**
 * What the provider shows of one listing (a search reads `files` per query, `resources/list`
 * reads `resources` per page, completion reads `paths`), built once per file version: a file
 * unchanged across walks keeps its views, and the first walk's listing, which grows at its end
 * while it runs, gets views for its new files only ({@link ListingViews.extend}, called as it
 * goes, so that no request pays for 100,000 views at once).
 */
import type { ListedResource } from '../../server/index.js';
import type { IndexedFile } from './file-index.js';

export interface FileInfo extends IndexedFile {
  readonly uri: string;
}

/**
 * `file` with its URI, spelled field by field: a spread of files whose number fields changed
 * representation (an integer mtime, then a fractional one) gives each copy a hidden class of its
 * own, ~300 bytes a file (30 MB on a 100,000-file listing, measured), and slower lookups.
 */
export function fileInfo(file: IndexedFile, uri: string): FileInfo {
  const { path, size, mtimeMs, ino, ctimeMs, mimeType } = file;
  return { path, size, mtimeMs, ino, ctimeMs, mimeType, uri };
}

/** The views of one listing so far; the copy callers get is made when they ask. */
interface Built<T> {
  from: readonly IndexedFile[];
  items: T[];
  /** A copy of `items` (a caller may hold it while the listing grows), made on demand. */
  snapshot: readonly T[] | undefined;
}

/** One kind of view of a listing's files, cached per file version (an {@link IndexedFile}). */
class ViewsOf<T> {
  private built: Built<T> | undefined;
  private readonly cache = new WeakMap<IndexedFile, T>();

  constructor(
    private readonly view: (file: IndexedFile) => T,
    private readonly freeze: boolean,
  ) {}

  /** The view of one file version, built once. */
  get(file: IndexedFile): T {
    let item = this.cache.get(file);
    if (item === undefined) this.cache.set(file, (item = this.view(file)));
    return item;
  }

  /** Views for the files of `from` that have none yet. */
  extend(from: readonly IndexedFile[]): void {
    if (this.built?.from !== from) this.built = { from, items: [], snapshot: undefined };
    const { items } = this.built;
    for (let i = items.length; i < from.length; i++) items.push(this.get(from[i] as IndexedFile));
  }

  of(from: readonly IndexedFile[]): readonly T[] {
    this.extend(from);
    const built = this.built as Built<T>;
    if (built.snapshot?.length !== built.items.length) {
      built.snapshot = this.freeze ? Object.freeze(built.items.slice()) : built.items.slice();
    }
    return built.snapshot;
  }
}

export class ListingViews {
  private readonly files: ViewsOf<FileInfo>;
  private readonly listed: ViewsOf<ListedResource>;
  private readonly paths = new ViewsOf<string>((f) => f.path, true);

  constructor(private readonly uriOf: (relative: string) => string) {
    this.files = new ViewsOf((f) => Object.freeze(fileInfo(f, uriOf(f.path))), true);
    // The entry shares its URI string with the file's view (100,000 strings fewer to keep).
    this.listed = new ViewsOf(
      (f) => ({
        uri: this.files.get(f).uri,
        name: f.path,
        mimeType: f.mimeType,
        size: f.size,
        annotations: { lastModified: new Date(f.mtimeMs).toISOString() },
      }),
      false,
    );
  }

  /** Builds the views of the files of `from` that have none yet (a growing listing, as it grows). */
  extend(from: readonly IndexedFile[]): void {
    this.files.extend(from);
    this.listed.extend(from);
    this.paths.extend(from);
  }

  /** The served files with their URIs (frozen, shared by every caller). */
  filesOf(from: readonly IndexedFile[]): readonly FileInfo[] {
    return this.files.of(from);
  }

  /** `resources/list` entries: uri, name (the relative path), mimeType, size, lastModified. */
  resourcesOf(from: readonly IndexedFile[]): ListedResource[] {
    // Shared by every page of this listing: the server only reads it.
    return this.listed.of(from) as ListedResource[];
  }

  /** One file with its URI (a fresh object: the caller may keep it). */
  infoOf(file: IndexedFile | undefined): FileInfo | undefined {
    return file ? fileInfo(file, this.uriOf(file.path)) : undefined;
  }

  /** The listed paths, in order. */
  pathsOf(from: readonly IndexedFile[]): readonly string[] {
    return this.paths.of(from);
  }
}
