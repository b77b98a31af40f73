/**
 * The provider's reads of its folder: a path resolved once and remembered while it is valid
 * (path-records.ts), then its contents from the cache or the disk (file-reader.ts), its stats,
 * or a stream (streamed-file.ts). What a watch or a bus reports changed is dropped here.
 */
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { ByteLruCache, type CacheStats } from './content-cache.js';
import {
  ContentStore,
  keepContents,
  readContents,
  sameFile,
  type ContentsOutcome,
} from './file-reader.js';
import type { ProviderFs } from './fs-types.js';
import { limitOr, PathRecord, PathRecords, type WatchCoverage } from './path-records.js';
import type { FileContents, ReadControl } from './read-file.js';
import { ReadFlights } from './read-flights.js';
import type { ReadPool } from './read-pool.js';
import { canRead, type Containment, type Resolved } from './resolve.js';
import { readOrStream, type WholeReadOutcome } from './streamed-file.js';
import type { StreamLimits } from './stream-steps.js';

export interface FileSourceOptions {
  fs: ProviderFs;
  /** The root and its rules (known once the provider is ready). */
  within: () => Containment;
  /** Bytes of encoded contents kept (the provider's `cacheBytes`; default 64 MiB). */
  cacheBytes?: number | undefined;
  watch: WatchCoverage;
  /** See `resolveTtlMs` and `maxResolvedPaths` of the provider's options. */
  ttlMs?: number | undefined;
  maxEntries?: number | undefined;
  /** What the listing knows of a file: the type it sniffed, at the size it had then. */
  listed?: (relative: string) => { mimeType?: string | undefined; size: number } | undefined;
  /** Workers that resolve and read a path as one job (read-pool.ts); else the event loop does. */
  pool?: ReadPool | undefined;
  /** What bounds each step of a streamed read (the provider's read time limit and stalls). */
  streamLimits?: StreamLimits | undefined;
}

/** Bytes of encoded contents cached by default. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/** The contents a job read of the file `resolved` (within the caller's limit): served. */
function served(resolved: Resolved | PathRecord, contents: FileContents): ContentsOutcome {
  if (resolved instanceof PathRecord) resolved.readable = true;
  return { kind: 'ok', contents };
}

/** Whether a job's resolution is the record's: the same real path, the same version. */
export function sameResolution(record: PathRecord, resolved: Resolved): boolean {
  return (
    resolved.kind === 'file' &&
    resolved.real === record.real &&
    sameFile(resolved.stats, record.stats)
  );
}

export class FileSource {
  private readonly records: PathRecords;
  private readonly cache: ByteLruCache<FileContents>;
  private readonly store: ContentStore;
  /** Jobs that read a remembered path for the cache, by its cache key. */
  private readonly jobs = new ReadFlights<void>();

  constructor(private readonly options: FileSourceOptions) {
    const { fs, within, watch, ttlMs, maxEntries } = options;
    this.cache = new ByteLruCache(limitOr(options.cacheBytes, DEFAULT_CACHE_BYTES, 'cacheBytes'));
    this.store = new ContentStore(this.cache);
    this.records = new PathRecords({ fs, within, watch, ttlMs, maxEntries });
  }

  /** Hits, misses and bytes of the contents cache. */
  cacheStats(): CacheStats {
    return this.cache.stats();
  }

  /** The encoded contents of `relative` (see `readContents`). */
  async contents(
    relative: string,
    limitBytes: number,
    control: ReadControl,
  ): Promise<ContentsOutcome> {
    const { resolved, read } = await this.resolveFor(relative, limitBytes, !control.checkpoint);
    if (resolved.kind !== 'file') return resolved;
    if (read && read.size <= (control.maxSize ?? Number.POSITIVE_INFINITY))
      return served(resolved, read);
    const { fs, within } = this.options;
    const outcome = await readContents(
      fs,
      within(),
      this.store,
      relative,
      limitBytes,
      control.known === undefined && control.maxSize === undefined && !control.checkpoint
        ? this.knownOf(relative)
        : { ...this.knownOf(relative), ...control },
      resolved,
    );
    if (outcome.kind === 'ok' && resolved instanceof PathRecord) resolved.readable = true;
    return outcome;
  }

  /**
   * A whole read; where the writer streams (HTTP), an uncached blob as a stream. Answered
   * without a promise when a trusted record's contents are cached: no I/O at all.
   */
  whole(
    relative: string,
    limitBytes: number,
    streams: boolean,
  ): WholeReadOutcome | Promise<WholeReadOutcome> {
    return this.hit(relative, limitBytes) ?? this.read(relative, limitBytes, streams);
  }

  /** What a whole read answers from memory alone, or undefined: it must read. */
  private hit(relative: string, limitBytes: number): WholeReadOutcome | undefined {
    const record = this.records.trusted(relative);
    if (record === undefined || this.cache.peek(record.key) === undefined) return undefined;
    const contents = this.cache.get(record.key) as FileContents;
    if (contents.wireBytes > limitBytes) {
      const { size, wireBytes, mtimeMs } = contents;
      return { kind: 'too-large', size, wireBytes, mtimeMs };
    }
    record.readable = true;
    return { kind: 'ok', contents };
  }

  private async read(
    relative: string,
    limitBytes: number,
    streams: boolean,
  ): Promise<WholeReadOutcome> {
    if (!streams) return this.contents(relative, limitBytes, {});
    const { resolved, read } = await this.resolveFor(relative, limitBytes, true);
    if (resolved.kind !== 'file') return resolved;
    if (read) return served(resolved, read);
    const { fs, within, streamLimits } = this.options;
    return readOrStream(
      fs,
      within(),
      this.store,
      relative,
      limitBytes,
      this.knownOf(relative),
      resolved,
      streamLimits,
    );
  }

  /**
   * What `relative` resolves to. With a pool (and `pooled`), a path not remembered is resolved
   * and read in one job, whose contents are served (`read`) and not cached: a file read once
   * never churns the cache (nor the heap). A remembered one whose contents are not cached is read
   * by a job too, and what it read is cached under the record's key when it is the same version.
   */
  private async resolveFor(
    relative: string,
    limitBytes: number,
    pooled: boolean,
  ): Promise<{ resolved: Resolved | PathRecord; read?: FileContents | undefined }> {
    const via = pooled ? this.pooled(relative, limitBytes) : undefined;
    if (!via) return { resolved: await this.records.resolve(relative) };
    let ran = false;
    let read: FileContents | undefined;
    const resolved = await this.records.resolve(relative, async (spoiled) => {
      ran = true;
      const job = await via(spoiled);
      read = job.contents;
      return job.resolved;
    });
    if (!ran && resolved instanceof PathRecord && this.cache.peek(resolved.key) === undefined) {
      // Concurrent reads of it share one job (many arrive while its first read runs).
      const job = async (): Promise<void> => {
        const again = await via(() => !resolved.current);
        // Kept only when the job found the record's file: a path retargeted since (a symlink)
        // read another file, whose bytes must never be cached under this record's key.
        if (again.contents && sameResolution(resolved, again.resolved))
          keepContents(this.cache, resolved.key, resolved.real, again.contents);
      };
      await this.jobs.join(resolved.key, limitBytes, Number.POSITIVE_INFINITY, job).outcome;
    }
    return { resolved, read };
  }

  /**
   * With a pool, a job that resolves the path and reads the file: `contents` when it read the
   * version it resolved and no change was reported meanwhile. Undefined without a pool.
   */
  private pooled(
    relative: string,
    limitBytes: number,
  ):
    | ((spoiled: () => boolean) => Promise<{ resolved: Resolved; contents?: FileContents }>)
    | undefined {
    const { pool } = this.options;
    // Without a contents cache a job would only resolve: not worth a worker.
    if (!pool || this.cache.maxBytes === 0) return undefined;
    return async (spoiled) => {
      const { root, visibility, refuseHardLinks } = this.options.within();
      const { cache } = this;
      const { resolved, outcome } = await pool.run({
        root,
        relative,
        visibility,
        refuseHardLinks: refuseHardLinks === true,
        limitBytes,
        keepsWireBytes: cache.maxBytes > 0 ? cache.maxEntryBytes : -1,
        known: this.knownOf(relative).known,
        settleMs: this.options.fs.settleMs,
      });
      const same =
        resolved.kind === 'file' &&
        outcome?.kind === 'ok' &&
        outcome.version !== undefined &&
        sameFile(outcome.version, resolved.stats) &&
        !spoiled();
      return same ? { resolved, contents: outcome.contents } : { resolved };
    };
  }

  /** What the listing sniffed for a file: its type at the size it had then. */
  private knownOf(relative: string): ReadControl {
    const listed = this.options.listed?.(relative);
    return listed?.mimeType === undefined
      ? {}
      : { known: { mimeType: listed.mimeType, size: listed.size } };
  }

  /**
   * The path stats of a file a read would serve, without reading it; undefined when a read would
   * answer "not found" or refuse it. An unreadable file (permissions) is undefined too: a stat
   * never tells it apart from a missing one. Readability is checked once per record.
   */
  async stat(relative: string): Promise<Stats | undefined> {
    const resolved = await this.records.resolve(relative);
    if (resolved.kind !== 'file') return undefined;
    const record = resolved instanceof PathRecord ? resolved : undefined;
    if (record?.readable === true) return resolved.stats;
    if (!(await canRead(this.options.fs, resolved.real))) {
      record?.stale();
      return undefined;
    }
    if (record) record.readable = true;
    return resolved.stats;
  }

  /** Something changed at `relative` (a file or a folder; undefined: anywhere). */
  drop(relative: string | undefined): void {
    this.records.drop(relative);
    if (relative === undefined) return; // cached versions are keyed by version: none is served wrong
    this.cache.deleteGroup(path.join(this.options.within().root, ...relative.split('/')));
  }

  /** Forgets every resolution, empties the contents cache and stops the read workers. */
  clear(): void {
    this.records.clear();
    this.cache.clear();
    this.options.pool?.close();
  }
}
