/** One served file through the guards and the contents cache: whether it is served, its contents. */
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import type { ByteLruCache } from './content-cache.js';
import type { ProviderFs } from './fs-types.js';
import {
  leastWireBytes,
  readFileContents,
  type FileContents,
  type ReadControl,
  type ReadOutcome,
} from './read-file.js';
import { ReadFlights } from './read-flights.js';
import { resolveInRoot, type Containment } from './resolve.js';

export type ContentsOutcome = ReadOutcome | { kind: 'refused'; reason: string };

/**
 * A path {@link resolveInRoot} found to be a servable regular file. A remembered one
 * (path-records.ts) also brings its cache key, and hears when a read finds it wrong.
 */
export interface ResolvedFile {
  readonly kind: 'file';
  readonly real: string;
  readonly stats: Stats;
  /** The cache key of the version resolved, made once ({@link cacheKey}). */
  readonly key?: string;
  /** False once a change was reported under the path: what is read then is not cached. */
  readonly current?: boolean;
  /** A read found another version there, or nothing servable: not to be reused. */
  stale?(): void;
}

/**
 * Cache key of one version of a file. Device and inode are in it because a same-size rewrite
 * that restores the mtime (`cp -p`, `rsync -t`, `tar -x`) written aside and renamed over is a
 * new inode, whose ctime may fall in the same clock tick; the ctime because a rewrite in place
 * moves it, as does a chmod or an ACL change (a file that became unreadable is opened and
 * answered "not found", not served from the cache).
 */
export function cacheKey(real: string, stats: Stats, ext: string): string {
  const { dev, ino, size, mtimeMs, ctimeMs } = stats;
  return `${real}\0${dev}\0${ino}\0${size}\0${mtimeMs}\0${ctimeMs}\0${ext}`;
}

/** Same file (device, inode) at the same version (size, mtime, ctime). */
export function sameFile(a: Stats, b: Stats): boolean {
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs
  );
}

/** One provider's contents cache and its reads in flight. */
export class ContentStore {
  readonly flights = new ReadFlights<ReadOutcome>();
  constructor(readonly cache: ByteLruCache<FileContents>) {}
}

/** `contents` for a caller with its own limits: served, or "too-large" for this caller. */
function fitted(contents: FileContents, limitBytes: number, maxSize: number): ReadOutcome {
  return contents.wireBytes > limitBytes || contents.size > maxSize
    ? {
        kind: 'too-large',
        size: contents.size,
        wireBytes: contents.wireBytes,
        mtimeMs: contents.mtimeMs,
      }
    : { kind: 'ok', contents };
}

/** Whether what the disk answered contradicts the resolution `resolved` (it is then forgotten). */
function contradicts(resolved: ResolvedFile, outcome: ReadOutcome): boolean {
  switch (outcome.kind) {
    case 'ok':
      return outcome.version !== undefined && !sameFile(outcome.version, resolved.stats);
    case 'too-large':
      return outcome.size !== resolved.stats.size;
    default:
      return true; // missing, refused or changed since it was resolved
  }
}

/**
 * The encoded contents of `relative`, from `cache` when the same file (device, inode) at the
 * same size, mtime and ctime was read before. `limitBytes` bounds the wire size of the text or
 * blob, `control.maxSize` the raw size: a file over either is "too-large" and not read.
 *
 * Concurrent misses of one version share one read: each caller's limits still apply, and a
 * failure reaches them all. A caller with larger limits than the shared read's, that it did not
 * fit, reads again alone; so does a read with a `checkpoint` (a search's budget), whose stop must
 * not fail another caller. `resolvedFile`: what the caller resolved already (not resolved twice;
 * its `stale` hears when the disk contradicts it).
 */
export async function readContents(
  fs: ProviderFs,
  within: Containment,
  store: ContentStore,
  relative: string,
  limitBytes: number,
  control: ReadControl = {},
  resolvedFile?: ResolvedFile,
): Promise<ContentsOutcome> {
  const { cache, flights } = store;
  const found =
    resolvedFile ?? (await resolveInRoot(fs, within.root, relative, within.visibility, within));
  if (found.kind !== 'file') return found;
  const resolved: ResolvedFile = found;
  const { stats } = resolved;
  const maxSize = control.maxSize ?? Number.POSITIVE_INFINITY;
  const key = resolved.key ?? cacheKey(resolved.real, stats, path.extname(relative));
  const cached = cache.get(key);
  if (cached) return fitted(cached, limitBytes, maxSize);
  const least = leastWireBytes(relative, stats.size, control.known);
  if (least > limitBytes || stats.size > maxSize)
    return { kind: 'too-large', size: stats.size, wireBytes: least, mtimeMs: stats.mtimeMs };
  const read = (): Promise<ReadOutcome> =>
    readAndKeep(fs, within, cache, key, resolved, relative, limitBytes, control);
  const judged = (outcome: ReadOutcome): ReadOutcome => {
    if (contradicts(resolved, outcome)) resolved.stale?.();
    return outcome;
  };
  if (control.checkpoint) return judged(await read());
  const flight = flights.join(key, limitBytes, maxSize, read);
  const outcome = judged(await flight.outcome);
  if (outcome.kind === 'ok') return fitted(outcome.contents, limitBytes, maxSize);
  if (outcome.kind === 'too-large' && (limitBytes > flight.limitBytes || maxSize > flight.maxSize))
    return judged(await read());
  return outcome;
}

/**
 * Reads the file and caches what was read when it is the version `key` names (the file may have
 * changed since it was resolved), unless a change was reported under the path meanwhile.
 */
async function readAndKeep(
  fs: ProviderFs,
  within: Containment,
  cache: ByteLruCache<FileContents>,
  key: string,
  resolved: ResolvedFile,
  relative: string,
  limitBytes: number,
  control: ReadControl,
): Promise<ReadOutcome> {
  const { real, stats } = resolved;
  const outcome = await readFileContents(fs, real, relative, limitBytes, within, control);
  const same = outcome.kind === 'ok' && outcome.version && sameFile(outcome.version, stats);
  if (same && resolved.current !== false) keepContents(cache, key, real, outcome.contents);
  return outcome;
}

/** Caches the contents `c` of the version `key` names, of the file at `real`. */
export function keepContents(
  cache: ByteLruCache<FileContents>,
  key: string,
  real: string,
  c: FileContents,
): void {
  cache.set(key, c, c.wireBytes, real);
}
