/** One served file through the guards and the contents cache: whether it is served, its contents. */
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { SHARED_BODY_MIN_BYTES, sharedBodies } from '../../content/shared-bodies.js';
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
import { canRead, resolveInRoot, type Containment, type Resolved } from './resolve.js';

export type ContentsOutcome = ReadOutcome | { kind: 'refused'; reason: string };

/** A path {@link resolveInRoot} found to be a servable regular file. */
export type ResolvedFile = Extract<Resolved, { kind: 'file' }>;

/**
 * The path stats of a file a read would serve, without reading it; undefined when a read would
 * answer "not found" or refuse it. An unreadable file (permissions) is undefined too: a stat
 * never tells it apart from a missing one.
 */
export async function statFile(
  fs: ProviderFs,
  within: Containment,
  relative: string,
): Promise<Stats | undefined> {
  const resolved = await resolveInRoot(fs, within.root, relative, within.visibility, within);
  if (resolved.kind !== 'file') return undefined;
  return (await canRead(fs, resolved.real)) ? resolved.stats : undefined;
}

/**
 * Cache key of one version of a file. The ctime is in it because a chmod or an ACL change moves
 * only the ctime: a file that became unreadable is opened (and answered "not found"), not served
 * from the cache.
 */
function cacheKey(real: string, stats: Stats, ext: string): string {
  return `${real}\0${stats.size}\0${stats.mtimeMs}\0${stats.ctimeMs}\0${ext}`;
}

/** Reads in flight, one table per cache (per provider), gone with it. */
const flightTables = new WeakMap<ByteLruCache<FileContents>, ReadFlights<ReadOutcome>>();

function flightsOf(cache: ByteLruCache<FileContents>): ReadFlights<ReadOutcome> {
  let flights = flightTables.get(cache);
  if (!flights) flightTables.set(cache, (flights = new ReadFlights()));
  return flights;
}

/** Reads in flight for `cache` now (tests: none is left behind). */
export function readsInFlight(cache: ByteLruCache<FileContents>): number {
  return flightTables.get(cache)?.size ?? 0;
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

/**
 * The encoded contents of `relative`, from `cache` when its size, mtime and ctime did not
 * change. `limitBytes` bounds the wire size of the text or blob, `control.maxSize` the raw size:
 * a file over either is "too-large" and not read.
 *
 * Concurrent misses of one version share one read: each caller's limits are still applied to
 * what it read, and a failure (a rejection, "changed") reaches every one of them. A caller
 * whose limits are larger than those the shared read started with, and that it did not fit,
 * reads again on its own. A read with a `checkpoint` (a search's budget) reads alone: its stop
 * must not become another caller's failure. `resolvedFile` is what a caller that resolved the
 * path already found (streamed-file.ts), so that it is not resolved twice.
 */
export async function readContents(
  fs: ProviderFs,
  within: Containment,
  cache: ByteLruCache<FileContents>,
  relative: string,
  limitBytes: number,
  control: ReadControl = {},
  resolvedFile?: ResolvedFile,
): Promise<ContentsOutcome> {
  const resolved =
    resolvedFile ?? (await resolveInRoot(fs, within.root, relative, within.visibility, within));
  if (resolved.kind !== 'file') return resolved;
  const { real, stats } = resolved;
  const maxSize = control.maxSize ?? Number.POSITIVE_INFINITY;
  const key = cacheKey(real, stats, path.extname(relative));
  const cached = cache.get(key);
  if (cached) return fitted(cached, limitBytes, maxSize);
  const known = control.known?.size === stats.size ? control.known.mimeType : undefined;
  const least = leastWireBytes(relative, stats.size, known);
  if (least > limitBytes || stats.size > maxSize)
    return { kind: 'too-large', size: stats.size, wireBytes: least, mtimeMs: stats.mtimeMs };
  const read = (): Promise<ReadOutcome> =>
    readAndKeep(fs, within, cache, key, real, stats, relative, limitBytes, control);
  if (control.checkpoint) return read();
  const flight = flightsOf(cache).join(key, limitBytes, maxSize, read);
  const outcome = await flight.outcome;
  if (outcome.kind === 'ok') return fitted(outcome.contents, limitBytes, maxSize);
  if (outcome.kind === 'too-large' && (limitBytes > flight.limitBytes || maxSize > flight.maxSize))
    return read();
  return outcome;
}

/**
 * Reads the file and caches what was read when it is the version `key` names (it may have
 * changed since). A large text or blob gets its JSON form encoded once, shared by every
 * response that sends it (see content/shared-bodies.ts), for as long as the entry is cached.
 */
async function readAndKeep(
  fs: ProviderFs,
  within: Containment,
  cache: ByteLruCache<FileContents>,
  key: string,
  real: string,
  stats: Stats,
  relative: string,
  limitBytes: number,
  control: ReadControl,
): Promise<ReadOutcome> {
  const outcome = await readFileContents(fs, real, relative, limitBytes, within, control);
  if (outcome.kind !== 'ok') return outcome;
  const c = outcome.contents;
  if (c.size !== stats.size || c.mtimeMs !== stats.mtimeMs) return outcome;
  // The shared bytes cost as much again: they count, so that cacheBytes bounds both.
  const shared = c.wireBytes >= SHARED_BODY_MIN_BYTES && cache.accepts(c.wireBytes * 2);
  const hold = shared
    ? c.blob !== undefined
      ? sharedBodies.hold(c.blob, 'base64')
      : sharedBodies.hold(c.text ?? '', 'text')
    : undefined;
  const cost = c.wireBytes + (hold?.bytes.byteLength ?? 0);
  cache.set(key, c, cost, hold?.release, real);
  return outcome;
}
