/**
 * What the provider shows of one listing, built once per listing (a search reads `files` per
 * query, `resources/list` reads `resources` per page): a new listing, new views.
 */
import type { ListedResource } from '../../server/index.js';
import type { IndexedFile } from './file-index.js';

export interface FileInfo extends IndexedFile {
  readonly uri: string;
}

export class ListingViews {
  private files: { from: readonly IndexedFile[]; views: readonly FileInfo[] } | undefined;
  private listed: { from: readonly IndexedFile[]; items: ListedResource[] } | undefined;

  constructor(private readonly uriOf: (relative: string) => string) {}

  /** The served files with their URIs (frozen, shared by every caller). */
  filesOf(from: readonly IndexedFile[]): readonly FileInfo[] {
    if (this.files?.from !== from) {
      const views = from.map((f) => Object.freeze({ ...f, uri: this.uriOf(f.path) }));
      this.files = { from, views: Object.freeze(views) };
    }
    return this.files.views;
  }

  /** `resources/list` entries: uri, name (the relative path), mimeType, size, lastModified. */
  resourcesOf(from: readonly IndexedFile[]): ListedResource[] {
    if (this.listed?.from !== from) {
      const items = from.map((f) => ({
        uri: this.uriOf(f.path),
        name: f.path,
        mimeType: f.mimeType,
        size: f.size,
        annotations: { lastModified: new Date(f.mtimeMs).toISOString() },
      }));
      this.listed = { from, items };
    }
    return this.listed.items;
  }
}
