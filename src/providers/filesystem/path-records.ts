/**
 * Resolve once, serve from memory while valid: what a root-relative path resolved to (real path,
 * device, inode, size, times, the cache key of its contents), so that a read of an unchanged file
 * does no `realpath` and, while the folder is watched, no syscall at all.
 *
 * A record is trusted without I/O only where the watch reports every change that could make it
 * wrong: no symlink on its path; no other hard link (a write through a name elsewhere is reported
 * to that name's folder only); `refuseHardLinks` off (a new link is reported nowhere); every
 * folder above it watched since before it was resolved. A change reported under it drops it at
 * once (FolderChanges, not after the debounce). Any other record costs one `stat` per read. Every
 * record expires after `ttlMs`, for changes no watch reports (a lost event, a network file
 * system, a link made later): one stat then renews a record the watch vouches for when it finds
 * the same version, else the path is resolved anew. See {@link PathRecords}.
 */
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { cacheKey, sameFile, type ResolvedFile } from './file-reader.js';
import type { ProviderFs } from './fs-types.js';
import { relativeInside } from './paths.js';
import { KeyTable } from '../../protocol/key-table.js';
import { resolveInRoot, type Containment, type Resolved } from './resolve.js';

/** How long a record is trusted at most, by default (ms): the backstop for unreported changes. */
export const DEFAULT_RESOLVE_TTL_MS = 2000;

/** Most paths remembered at once, by default; the oldest go first. */
export const DEFAULT_MAX_RESOLVED_PATHS = 10_000;

/** What the folder's watch covers now (folder-freshness.ts). */
export interface WatchCoverage {
  /**
   * A token while every folder in `dirs` (root-relative, `''` the root) has its entries watched,
   * else undefined. The token changes whenever any watch is lost, so a token still equal to
   * {@link epoch} later means every change under them since was reported.
   */
  coverage(dirs: readonly string[]): number | undefined;
  readonly epoch: number;
}

export interface PathRecordsOptions {
  fs: ProviderFs;
  /** The root and its rules (known once the provider is ready). */
  within: () => Containment;
  watch: WatchCoverage;
  /** Longest a record lives (ms); 0 remembers nothing. */
  ttlMs?: number | undefined;
  /** Most records kept; 0 remembers nothing. */
  maxEntries?: number | undefined;
  /** A monotonic clock in ms (default `performance.now`). */
  now?: () => number;
}

/** One remembered resolution of a root-relative path. */
export class PathRecord implements ResolvedFile {
  readonly kind = 'file';
  /** Set once a change under the path was reported (or the record was otherwise forgotten). */
  dropped = false;
  /** A read or an access check found the file readable (stat answers without checking again). */
  readable = false;

  constructor(
    private readonly owner: PathRecords,
    readonly relative: string,
    readonly real: string,
    readonly stats: Stats,
    readonly key: string,
    /** Path names whose change drops the record: the path itself, and its real path. */
    readonly names: readonly string[],
    /** The watch alone may vouch for it (see the module's comment); else a stat per read. */
    readonly byWatch: boolean,
    /** Renewed by a stat that finds the file unchanged (see PathRecords.resolve). */
    public expiresAt: number,
    /** The watch's token when it covered every folder above the path; undefined: it did not. */
    readonly coverage: number | undefined,
  ) {}

  get current(): boolean {
    return !this.dropped;
  }

  stale(): void {
    this.owner.forget(this);
  }
}

/** The folders above a root-relative path, outermost first: `a/b/c` -> `['', 'a', 'a/b']`. */
export function foldersAbove(relative: string): string[] {
  const dirs = [''];
  for (let at = relative.indexOf('/'); at !== -1; at = relative.indexOf('/', at + 1)) {
    dirs.push(relative.slice(0, at));
  }
  return dirs;
}

/** Where a change drops a record named `name`: at the name, or at any folder above it. */
function dropKeys(name: string): string[] {
  const keys = foldersAbove(name);
  keys[0] = name; // the root ('') is never an event's path: a pathless event drops all
  return keys;
}

/** One resolution in flight; spoiled by a change reported at its path or a folder above it. */
class Flight {
  spoiled = false;
  readonly resolved: Promise<Resolved | PathRecord>;

  constructor(run: (flight: Flight) => Promise<Resolved | PathRecord>) {
    this.resolved = run(this);
  }
}

/** `value`, or `fallback` when it is undefined: a whole number, 0 or more (a RangeError naming it). */
export function limitOr(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`${name} must be a whole number, 0 or more (got ${String(value)})`);
  }
  return n;
}

/**
 * The records of one served folder.
 *
 * Residual window: a record the watch vouches for is served from a change on disk until its
 * event reaches FolderChanges (the kernel's queue, then the event loop: well under a millisecond
 * when idle), and up to `ttlMs` for a change no event reports. Meanwhile a read answers the
 * previous version: its cached bytes, or an open of the recorded real path that `openInRoot`
 * checks again (O_NOFOLLOW; the descriptor's own path inside the root). So no byte from outside
 * the root is served even then; but a path component replaced by a symlink leading outside may
 * answer its old, inside contents instead of a refusal. A record with a symlink on its path, or
 * without a watch, has no such window: its stat sees another version, and the path is resolved
 * (and refused) again.
 */
export class PathRecords {
  private readonly records = new Map<string, PathRecord>();
  /**
   * Each name, and each folder above it, to the records that a change there drops (a record's
   * own path is not here: `records` finds it by that).
   */
  private readonly under = new Map<string, Set<PathRecord>>();
  /** Resolutions in flight, by path: concurrent misses of one path share one realpath. */
  private readonly flights = new KeyTable<Flight>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: PathRecordsOptions) {
    this.ttlMs = limitOr(options.ttlMs, DEFAULT_RESOLVE_TTL_MS, 'resolveTtlMs');
    this.maxEntries = limitOr(options.maxEntries, DEFAULT_MAX_RESOLVED_PATHS, 'maxResolvedPaths');
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * What `relative` resolves to (see {@link resolveInRoot}): its record when still valid, else a
   * fresh resolution, remembered when it is a servable file. `via` resolves instead of
   * {@link resolveInRoot} (a read pool's job, which may read the file too); it hears whether a
   * change was reported under the path meanwhile.
   */
  async resolve(
    relative: string,
    via?: (spoiled: () => boolean) => Promise<Resolved>,
  ): Promise<Resolved | PathRecord> {
    const record = this.records.get(relative);
    if (record && this.now() < record.expiresAt) {
      if (this.vouched(record) || (await this.unchanged(record))) return record;
    } else if (record && this.vouched(record) && (await this.renewable(record))) {
      // Expired, but the watch still vouches for its path, a stat finds the same version and
      // the path still leads there (no folder on it swapped for a symlink unreported):
      // trusted for another ttlMs, without the whole resolution again.
      if (this.records.get(relative) === record) {
        record.expiresAt = this.now() + this.ttlMs;
        return record;
      }
    }
    if (record) this.forget(record);
    let flight = this.flights.get(relative);
    if (!flight) {
      const started = new Flight((self) =>
        this.resolveNow(relative, self, via).finally(() => {
          if (this.flights.get(relative) === self) this.flights.delete(relative);
        }),
      );
      this.flights.set(relative, (flight = started));
    }
    return flight.resolved;
  }

  /**
   * A change was reported at `changed` (a file or a folder, root-relative; undefined: somewhere):
   * drops every record named by it or below it. A resolution of such a path in flight may have
   * seen the folder before the change: it is not remembered, and later reads resolve anew.
   */
  drop(changed: string | undefined): void {
    if (changed === undefined) return this.clear();
    for (const relative of this.flights.keys()) {
      if (relative === changed || relative.startsWith(`${changed}/`)) {
        const flight = this.flights.get(relative);
        if (flight) flight.spoiled = true;
        this.flights.delete(relative);
      }
    }
    const own = this.records.get(changed);
    if (own) this.forget(own);
    const hit = this.under.get(changed);
    if (hit) for (const record of [...hit]) this.forget(record);
  }

  /** Forgets `record` (a read found the file otherwise than it says). */
  forget(record: PathRecord): void {
    record.dropped = true;
    if (this.records.get(record.relative) !== record) return;
    this.records.delete(record.relative);
    for (const name of record.names) {
      for (const key of dropKeys(name)) {
        if (key === record.relative) continue; // found in `records` by its own path
        const set = this.under.get(key);
        set?.delete(record);
        if (set?.size === 0) this.under.delete(key);
      }
    }
  }

  clear(): void {
    for (const record of this.records.values()) record.dropped = true;
    this.records.clear();
    this.under.clear();
    for (const flight of this.flights.snapshot()) flight.spoiled = true;
    this.flights.clear();
  }

  /** The record of `relative` when `resolve` would answer it now without I/O; else undefined. */
  trusted(relative: string): PathRecord | undefined {
    const record = this.records.get(relative);
    return record !== undefined && !record.dropped && this.trusts(record) ? record : undefined;
  }

  /** Whether `resolve` would answer `record` now without I/O. */
  private trusts(record: PathRecord): boolean {
    return (
      this.now() < record.expiresAt &&
      this.vouched(record) &&
      this.records.get(record.relative) === record
    );
  }

  /** Whether the watch vouches for `record`: it reported every change since it was made. */
  private vouched(record: PathRecord): boolean {
    return record.byWatch && record.coverage === this.options.watch.epoch;
  }

  /** Whether the path still names the recorded file at its recorded version: one stat. */
  private async unchanged(record: PathRecord): Promise<boolean> {
    let now: Stats;
    const where = path.join(this.options.within().root, record.relative);
    try {
      // stat, not lstat: it follows every symlink on the path to the file the path names now.
      now = await this.options.fs.stat(where);
    } catch {
      return false; // resolved again, which tells missing from refused
    }
    if (this.options.within().refuseHardLinks === true && now.nlink > 1) return false;
    return !record.dropped && now.isFile() && sameFile(now, record.stats);
  }

  /** {@link unchanged}, and the path's real path still the recorded one. */
  private async renewable(record: PathRecord): Promise<boolean> {
    if (!(await this.unchanged(record))) return false;
    try {
      const real = await this.options.fs.realpath(
        path.join(this.options.within().root, record.relative),
      );
      return real === record.real && !record.dropped;
    } catch {
      return false;
    }
  }

  /** Resolves `relative` anew, in `flight`. */
  private async resolveNow(
    relative: string,
    flight: Flight,
    via: ((spoiled: () => boolean) => Promise<Resolved>) | undefined,
  ): Promise<Resolved | PathRecord> {
    const { watch } = this.options;
    const within = this.options.within();
    // Taken before any I/O: a change after this point is reported, and spoils this flight.
    const coverage = watch.coverage(foldersAbove(relative));
    const resolved = await (via
      ? via(() => flight.spoiled)
      : resolveInRoot(this.options.fs, within.root, relative, within.visibility, within));
    if (resolved.kind !== 'file' || this.ttlMs === 0 || this.maxEntries === 0) return resolved;
    // A symlinked path's real path is learned only now; its stat on every read covers it.
    if (flight.spoiled) return resolved;
    const realRelative = relativeInside(within.root, resolved.real) ?? '';
    const symlinked = realRelative !== relative;
    const byWatch = !symlinked && resolved.stats.nlink <= 1 && within.refuseHardLinks !== true;
    const record = new PathRecord(
      this,
      relative,
      resolved.real,
      resolved.stats,
      cacheKey(resolved.real, resolved.stats, path.extname(relative)),
      symlinked ? [relative, realRelative] : [relative],
      byWatch,
      this.now() + this.ttlMs,
      coverage,
    );
    this.store(record);
    return record;
  }

  private store(record: PathRecord): void {
    const old = this.records.get(record.relative);
    if (old) this.forget(old);
    this.records.set(record.relative, record);
    for (const name of record.names) {
      for (const key of dropKeys(name)) {
        if (key === record.relative) continue; // found in `records` by its own path
        let set = this.under.get(key);
        if (!set) this.under.set(key, (set = new Set()));
        set.add(record);
      }
    }
    // Insertion order is age: the oldest record expires first anyway.
    for (const oldest of this.records.values()) {
      if (this.records.size <= this.maxEntries) break;
      this.forget(oldest);
    }
  }
}
