/**
 * What the provider shows of one listing (`files` per search, `resources` per list page, `paths`
 * per completion), built once per file version: an unchanged file keeps its views, and the first
 * walk's growing listing gets views for its new files only, as it goes
 * ({@link ListingViews.extend}), so that no request pays for 100,000 views at once.
 */
import type { ListedResource } from '../../server/index.js';
import type { IndexedFile } from './file-index.js';

/** A served file with its URI (frozen, shared by every caller). */
export type FileInfo = IndexedFile;

/** The views of one listing so far; the copy callers get is made when they ask. */
interface Built<T> {
  from: readonly IndexedFile[];
  items: T[];
  /** A copy of `items` (a caller may hold it while the listing grows), made on demand. */
  snapshot: readonly T[] | undefined;
}

/**
 * One kind of view of a listing's files; with `cached`, each built once per file version (an
 * {@link IndexedFile}), else read off the file (a weak map of 100,000 entries is work for every
 * full collection).
 */
class ViewsOf<T> {
  private built: Built<T> | undefined;
  private readonly cache: WeakMap<IndexedFile, T> | undefined;

  constructor(
    private readonly view: (file: IndexedFile) => T,
    private readonly freeze: boolean,
    cached: boolean,
  ) {
    this.cache = cached ? new WeakMap() : undefined;
  }

  /** The view of one file version. */
  get(file: IndexedFile): T {
    if (!this.cache) return this.view(file);
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
  private readonly files = new ViewsOf<FileInfo>((f) => f, true, false);
  private readonly paths = new ViewsOf<string>((f) => f.path, true, false);
  private readonly listed = new ViewsOf<ListedResource>(
    (f) => ({
      uri: f.uri,
      name: f.path,
      mimeType: f.mimeType,
      size: f.size,
      annotations: { lastModified: new Date(f.mtimeMs).toISOString() },
    }),
    false,
    true,
  );

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

  /** The listed paths, in order. */
  pathsOf(from: readonly IndexedFile[]): readonly string[] {
    return this.paths.of(from);
  }
}
