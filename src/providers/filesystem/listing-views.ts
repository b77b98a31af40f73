/**
 * What the provider shows of one listing, built once per listing (a search reads `files` per
 * query, `resources/list` reads `resources` per page): a new listing, new views. The first
 * walk's listing grows at its end while it runs: only the new files get views.
 */
import type { ListedResource } from '../../server/index.js';
import type { IndexedFile } from './file-index.js';

export interface FileInfo extends IndexedFile {
  readonly uri: string;
}

/** Views of the items of one listing, extended as it grows; `snapshot` is what callers get. */
interface Built<T> {
  from: readonly IndexedFile[];
  items: T[];
  /** A copy of `items`: a caller may hold it while the listing grows. */
  snapshot: readonly T[];
}

function extend<T>(
  built: Built<T> | undefined,
  from: readonly IndexedFile[],
  view: (file: IndexedFile) => T,
  freeze: boolean,
): Built<T> {
  const b: Built<T> = built?.from === from ? built : { from, items: [], snapshot: [] };
  if (b.items.length < from.length || b.snapshot.length !== b.items.length) {
    for (let i = b.items.length; i < from.length; i++) b.items.push(view(from[i] as IndexedFile));
    b.snapshot = freeze ? Object.freeze(b.items.slice()) : b.items.slice();
  }
  return b;
}

export class ListingViews {
  private files: Built<FileInfo> | undefined;
  private listed: Built<ListedResource> | undefined;

  constructor(private readonly uriOf: (relative: string) => string) {}

  /** The served files with their URIs (frozen, shared by every caller). */
  filesOf(from: readonly IndexedFile[]): readonly FileInfo[] {
    this.files = extend(
      this.files,
      from,
      (f) => Object.freeze({ ...f, uri: this.uriOf(f.path) }),
      true,
    );
    return this.files.snapshot;
  }

  /** `resources/list` entries: uri, name (the relative path), mimeType, size, lastModified. */
  resourcesOf(from: readonly IndexedFile[]): ListedResource[] {
    this.listed = extend(
      this.listed,
      from,
      (f) => ({
        uri: this.uriOf(f.path),
        name: f.path,
        mimeType: f.mimeType,
        size: f.size,
        annotations: { lastModified: new Date(f.mtimeMs).toISOString() },
      }),
      false,
    );
    // Shared by every page of this listing: the server only reads it.
    return this.listed.snapshot as ListedResource[];
  }
}
