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
import { canRead, resolveInRoot, type Containment } from './resolve.js';

export type ContentsOutcome = ReadOutcome | { kind: 'refused'; reason: string };

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

/**
 * The encoded contents of `relative`, from `cache` when its size, mtime and ctime did not
 * change. `limitBytes` bounds the wire size of the text or blob, `control.maxSize` the raw size:
 * a file over either is "too-large" and not read.
 */
export async function readContents(
  fs: ProviderFs,
  within: Containment,
  cache: ByteLruCache<FileContents>,
  relative: string,
  limitBytes: number,
  control: ReadControl = {},
): Promise<ContentsOutcome> {
  const resolved = await resolveInRoot(fs, within.root, relative, within.visibility, within);
  if (resolved.kind !== 'file') return resolved;
  const { real, stats } = resolved;
  const maxSize = control.maxSize ?? Number.POSITIVE_INFINITY;
  const key = cacheKey(real, stats, path.extname(relative));
  const cached = cache.get(key);
  if (cached) {
    return cached.wireBytes > limitBytes || cached.size > maxSize
      ? {
          kind: 'too-large',
          size: cached.size,
          wireBytes: cached.wireBytes,
          mtimeMs: cached.mtimeMs,
        }
      : { kind: 'ok', contents: cached };
  }
  const least = leastWireBytes(relative, stats.size);
  if (least > limitBytes || stats.size > maxSize)
    return { kind: 'too-large', size: stats.size, wireBytes: least, mtimeMs: stats.mtimeMs };
  const outcome = await readFileContents(fs, real, relative, limitBytes, within, control);
  // Kept only when what was read is the version the key names (it may have changed since).
  if (outcome.kind === 'ok') {
    const c = outcome.contents;
    if (c.size === stats.size && c.mtimeMs === stats.mtimeMs) cache.set(key, c, c.wireBytes);
  }
  return outcome;
}
