/**
 * A folder served as MCP resources: `file:///{+path}` with a paged list, completion and safe
 * reads, and `file:///{+path}{?offset,length,version}` to read a file of any size in parts.
 */
import * as path from 'node:path';
import { McpKitError } from '../../errors/mcpkit-error.js';
import { mimeFromName } from '../../content/mime.js';
import { matchSafely, parseTemplate, type UriTemplate } from '../../uri/index.js';
import type { ListedResource, McpServer, ResourceStat } from '../../server/index.js';
import { ByteLruCache, type CacheStats } from './content-cache.js';
import { FileIndex, type IndexDiff, type IndexedFile } from './file-index.js';
import { FileParts, PARTS_DESCRIPTION } from './file-parts.js';
import { FolderWatcher } from './folder-watcher.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import type { FilesystemProviderOptions } from './provider-options.js';
import { readContents, statFile, type ContentsOutcome } from './file-reader.js';
import { readOrStream } from './streamed-file.js';
import { readWhole } from './whole-read.js';
import type { FileContents, ReadControl } from './read-file.js';
import type { Containment } from './resolve.js';
import { completePaths, escapePath, type PathCompletion, type Visibility } from './paths.js';

export type { FilesystemProviderOptions } from './provider-options.js';

/** A served file as the provider lists it. */
export interface FileInfo extends IndexedFile {
  readonly uri: string;
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

const WATCH_DEBOUNCE_MS = 100;

/**
 * Serves a folder as resources. Reads resolve the path under the root, follow symlinks only to
 * targets that stay inside it, and serve regular files only; anything else is refused with
 * -32602 before a byte is read. A file whose contents cannot fit the request's result cap is
 * refused with -32603 from its size alone; one that kept changing while it was read, with -32603
 * `reason: 'changed'` (never bytes mixed from two versions). A file this process may not read is
 * neither listed, searched nor completed, and reads exactly as a missing one. Encoded contents
 * of unchanged files are cached (keyed by real path, size, mtime and ctime, bounded in bytes).
 *
 * @example
 * const provider = createFilesystemProvider({ root: './docs' });
 * provider.register(server);
 * await provider.ready();
 */
export class FilesystemProvider {
  /** The served folder, absolute (as given, before symlinks are resolved). */
  readonly root: string;
  readonly uriTemplate: string;
  /**
   * The template of the parts of a file, `${uriPrefix}{+path}{?offset,length,version}`: `offset`
   * (default 0) and `length` (default {@link partBytes}) in bytes, `version` from a part's `_meta`.
   */
  readonly partsTemplate: string;
  private readonly template: UriTemplate;
  private readonly parts: FileParts;
  private readonly fs: ProviderFs;
  private readonly visibility: Visibility;
  private readonly cache: ByteLruCache<FileContents>;
  private readonly options: FilesystemProviderOptions;
  private readonly servers = new Set<McpServer>();
  private within: Containment | undefined;
  private index: FileIndex | undefined;
  private starting: Promise<void> | undefined;
  private listed: { from: readonly IndexedFile[]; items: ListedResource[] } | undefined;
  private watcher: FolderWatcher | undefined;
  private debounce: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(options: FilesystemProviderOptions) {
    this.options = options;
    this.root = path.resolve(options.root);
    const prefix = options.uriPrefix ?? 'file:///';
    if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:[^{}]*\/$/.test(prefix)) {
      throw new McpKitError(
        'INVALID_URI',
        `uriPrefix ${JSON.stringify(prefix)} must be an absolute URI ending with "/", without braces`,
      );
    }
    this.uriTemplate = `${prefix}{+path}`;
    this.template = parseTemplate(this.uriTemplate);
    const fs = options.fs ?? nodeFs;
    this.fs = options.settleMs === undefined ? fs : { ...fs, settleMs: options.settleMs };
    this.parts = new FileParts({
      prefix,
      ...(options.partBytes !== undefined ? { partBytes: options.partBytes } : {}),
      fs: this.fs,
      containment: () => this.containment(),
      stat: (relative) => this.stat(relative),
    });
    this.partsTemplate = this.parts.template;
    this.visibility = {
      hidden: options.hidden ?? false,
      ignore: new Set(options.ignore ?? ['node_modules']),
    };
    this.cache = new ByteLruCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  }

  /** Resolves the root and walks it once; later calls return at once. Rejects if the root is not a folder. */
  ready(): Promise<void> {
    this.starting ??= this.start();
    return this.starting;
  }

  private async start(): Promise<void> {
    let real: string;
    try {
      real = await this.fs.realpath(this.root);
      if (!(await this.fs.stat(real)).isDirectory()) throw new Error('not a directory');
    } catch (error) {
      throw new McpKitError(
        'ROOT_NOT_FOUND',
        `cannot serve ${this.root}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    this.within = {
      root: real,
      visibility: this.visibility,
      refuseHardLinks: this.options.refuseHardLinks ?? false,
    };
    this.index = new FileIndex({
      fs: this.fs,
      root: real,
      visibility: this.visibility,
      refuseHardLinks: this.options.refuseHardLinks ?? false,
      maxFiles: this.options.maxFiles ?? 100_000,
      accept: (rel) => this.pathOf(this.uriOf(rel)) === rel,
      onProgress: this.options.onProgress,
      onWarning: this.options.onWarning,
    });
    await this.index.refresh();
    if (this.options.watch) this.startWatching(real, this.index);
  }

  /**
   * The URI of a root-relative path, by template expansion: `%` and the gen-delims other than
   * `/` (`:` `?` `#` `[` `]` `@`) are percent-encoded first, so `notes[1].md` is
   * `file:///notes%5B1%5D.md`, a valid RFC 3986 URI that {@link pathOf} maps back.
   */
  uriOf(relative: string): string {
    return this.template.expand({ path: escapePath(relative) });
  }

  /** The `length` of a part URI that gives none ({@link FilesystemProviderOptions.partBytes}). */
  get partBytes(): number {
    return this.parts.partBytes;
  }

  /**
   * The URI of a part of a root-relative path, by expansion of the parts template:
   * `partUri('big.log', { offset: 0, length: 1048576 })` is
   * `file:///big.log?offset=0&length=1048576`.
   */
  partUri(relative: string, part: { offset: number; length: number; version?: string }): string {
    return this.parts.uri(relative, part);
  }

  /**
   * The URI of the first part of a file whose contents cannot fit `capBytes` (a request's
   * `ctx.capBytes`), judged from its size and type; undefined when it may be read whole.
   */
  firstPartFor(
    file: { path: string; size: number; mimeType?: string },
    capBytes: number,
  ): string | undefined {
    return this.parts.firstIfTooLarge(file, capBytes);
  }

  /** The root-relative path a URI names, decoded and checked; undefined if it is not ours or unsafe. */
  pathOf(uri: string): string | undefined {
    const match = matchSafely(this.template, uri);
    const value = match?.ok ? match.variables['path'] : undefined;
    return typeof value === 'string' ? value : undefined;
  }

  /** The served files, sorted by path; walks the folder again when the listing is stale. */
  async files(): Promise<readonly FileInfo[]> {
    const index = await this.freshIndex();
    return index.files.map((f) => ({ ...f, uri: this.uriOf(f.path) }));
  }

  /** One listed file, from the current listing (no I/O beyond a stale-listing walk). */
  async file(relative: string): Promise<FileInfo | undefined> {
    const found = (await this.freshIndex()).get(relative);
    return found ? { ...found, uri: this.uriOf(found.path) } : undefined;
  }

  /** `resources/list` entries: uri, name (the relative path), mimeType, size, lastModified. */
  async list(): Promise<ListedResource[]> {
    const index = await this.freshIndex();
    if (this.listed?.from !== index.files) {
      const items = index.files.map((f) => ({
        uri: this.uriOf(f.path),
        name: f.path,
        mimeType: f.mimeType,
        size: f.size,
        annotations: { lastModified: new Date(f.mtimeMs).toISOString() },
      }));
      this.listed = { from: index.files, items };
    }
    return this.listed.items;
  }

  /** Paths that start with `prefix`, then paths that contain it (case-insensitive). */
  async complete(prefix: string): Promise<PathCompletion> {
    return completePaths(
      (await this.freshIndex()).files.map((f) => f.path),
      prefix,
    );
  }

  /**
   * Size and type of a file without reading it; undefined when a read would not serve it
   * (missing, hidden, refused, or unreadable: never told apart). With `capBytes`, a file too
   * large to read whole under it also gets its `firstPart` ({@link firstPartFor}).
   */
  async stat(relative: string, capBytes?: number): Promise<ResourceStat | undefined> {
    const stats = await statFile(this.fs, await this.containment(), relative);
    if (!stats) return undefined;
    const { size } = stats;
    const mimeType = this.index?.get(relative)?.mimeType ?? mimeFromName(relative);
    const stat = mimeType === undefined ? { size } : { size, mimeType };
    const firstPart =
      capBytes === undefined ? undefined : this.firstPartFor({ ...stat, path: relative }, capBytes);
    return firstPart === undefined ? stat : { ...stat, firstPart };
  }

  /**
   * The encoded contents of a file, from the cache when it did not change. `limitBytes` bounds
   * the wire size of the text or blob: a file over it is not read. `control` bounds a read
   * further (a search's budget: raw bytes, a checkpoint between the steps of a large read).
   */
  async contents(
    relative: string,
    limitBytes = Number.POSITIVE_INFINITY,
    control: ReadControl = {},
  ): Promise<ContentsOutcome> {
    const within = await this.containment();
    return readContents(this.fs, within, this.cache, relative, limitBytes, {
      ...this.knownOf(relative),
      ...control,
    });
  }

  /** What the listing sniffed for a file: its type at the size it had then. */
  private knownOf(relative: string): ReadControl {
    const listed = this.index?.get(relative);
    return listed?.mimeType === undefined
      ? {}
      : { known: { mimeType: listed.mimeType, size: listed.size } };
  }

  /** Hits, misses and bytes of the contents cache. */
  cacheStats(): CacheStats {
    return this.cache.stats();
  }

  /**
   * Registers the `file:///{+path}` template on a server (list, completion of `path`, stat so
   * that results link large files unread, read) and the parts template {@link partsTemplate}
   * (completion, stat, read of one part). Returns a function that removes both.
   */
  register(server: McpServer): () => void {
    this.servers.add(server);
    const name = this.options.name ?? 'files';
    const title = path.basename(this.root) || this.root;
    const complete = { path: (value: string) => this.complete(value) };
    const remove = server.resource(
      this.uriTemplate,
      {
        name,
        title: `Files in ${title}`,
        description:
          this.options.description ??
          'Any file under the served folder, by its path relative to the folder',
        list: () => this.list(),
        complete,
        stat: (_uri, variables, context) =>
          typeof variables['path'] === 'string'
            ? this.stat(variables['path'], context?.capBytes)
            : undefined,
      },
      (uri, variables, ctx) => {
        const relative = variables['path'];
        if (typeof relative !== 'string') return undefined;
        return readWhole(uri, relative, ctx, {
          partsTemplate: this.partsTemplate,
          firstPart: (file) => this.parts.first(file),
          read: async (file, limit) =>
            // Where the writer streams (HTTP), an uncached blob is sent from the file as read.
            ctx.streamsBodies
              ? readOrStream(
                  this.fs,
                  await this.containment(),
                  this.cache,
                  file,
                  limit,
                  this.knownOf(file),
                )
              : this.contents(file, limit),
        });
      },
    );
    const removeParts = server.resource(
      this.partsTemplate,
      {
        name: `${name}-parts`,
        title: `Parts of files in ${title}`,
        description: PARTS_DESCRIPTION,
        complete,
        stat: (uri, variables) => this.parts.stat(uri, variables),
      },
      (uri, variables, ctx) => this.parts.read(uri, variables, ctx.capBytes),
    );
    return () => {
      removeParts();
      remove();
      this.servers.delete(server);
    };
  }

  /** Walks the folder now and notifies registered servers of what changed. */
  async rescan(): Promise<IndexDiff> {
    await this.ready();
    const index = this.index as FileIndex;
    const diff = await index.refresh();
    this.watcher?.sync(index.directories);
    this.announce(diff);
    return diff;
  }

  /** Stops watching and empties the contents cache; the provider still serves, with a listing refreshed on demand. */
  close(): void {
    this.closed = true;
    if (this.debounce) clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = undefined;
    // Cached bodies hold shared bytes in a process-wide registry: they go with the provider.
    this.cache.clear();
  }

  private async containment(): Promise<Containment> {
    await this.ready();
    return this.within as Containment;
  }

  private async freshIndex(): Promise<FileIndex> {
    await this.ready();
    const index = this.index as FileIndex;
    const maxAge = this.options.rescanMs ?? (this.watcher?.active ? 30_000 : 2_000);
    if (Date.now() - index.scannedAt > maxAge) {
      const diff = await index.refresh();
      this.watcher?.sync(index.directories);
      this.announce(diff);
    }
    return index;
  }

  private announce(diff: IndexDiff): void {
    if (diff.added.length + diff.removed.length > 0)
      for (const s of this.servers) s.notifyListChanged('resources');
    for (const changed of diff.changed) {
      const uri = this.uriOf(changed);
      for (const s of this.servers) s.notifyResourceUpdated(uri);
    }
  }

  private startWatching(root: string, index: FileIndex): void {
    this.watcher = new FolderWatcher(root, {
      onChange: () => this.onChange(),
      onFailure: (why) =>
        this.options.onWarning?.(
          `not watching ${this.root} (${why}); the listing is refreshed when it is older than ${this.options.rescanMs ?? 2000} ms`,
        ),
    });
    this.watcher.sync(index.directories);
  }

  private onChange(): void {
    if (this.closed) return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      this.rescan().catch((error: unknown) =>
        this.options.onWarning?.(`rescan failed: ${(error as Error).message}`),
      );
    }, WATCH_DEBOUNCE_MS);
    this.debounce.unref?.();
  }
}

/** Creates a filesystem provider; call `register(server)` and `ready()`. */
export function createFilesystemProvider(options: FilesystemProviderOptions): FilesystemProvider {
  return new FilesystemProvider(options);
}
