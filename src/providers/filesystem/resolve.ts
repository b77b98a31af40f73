/** Maps a checked, root-relative path to a regular file inside the root, or says why not. */
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { isMissing, type ProviderFs } from './fs-types.js';
import { isInside, isVisiblePath, toPosix, type Visibility } from './paths.js';

export type Resolved =
  | { kind: 'file'; real: string; stats: Stats }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string };

const MISSING: Resolved = { kind: 'missing' };

/**
 * Resolves `relative` (a decoded template variable: POSIX separators, no root) under `root`
 * (already a real path). Refuses what would leave the root, before any I/O (`..`, an absolute
 * path, NUL, a backslash) and after `realpath` (a symlink pointing out). Hidden and ignored names
 * (also as a symlink's target), directories and special files are "missing", as is a file that
 * cannot be reached for permissions. Nothing is opened here.
 */
export async function resolveInRoot(
  fs: ProviderFs,
  root: string,
  relative: string,
  visibility: Visibility,
): Promise<Resolved> {
  if (relative.includes('\0'))
    return { kind: 'refused', reason: 'the path contains a NUL character' };
  if (relative.includes('\\')) return { kind: 'refused', reason: 'the path contains a backslash' };
  if (relative.startsWith('/') || path.isAbsolute(relative)) {
    return { kind: 'refused', reason: 'the path is absolute' };
  }
  const absolute = path.resolve(root, relative);
  if (!isInside(root, absolute))
    return { kind: 'refused', reason: 'the path leaves the served folder' };
  const rel = toPosix(path.relative(root, absolute));
  if (rel === '' || !isVisiblePath(rel, visibility)) return MISSING;
  let real: string;
  try {
    real = await fs.realpath(absolute);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ELOOP')
      return { kind: 'refused', reason: 'the path is a symlink loop' };
    if (isMissing(error) || (error as { code?: unknown }).code === 'EACCES') return MISSING;
    throw error;
  }
  if (!isInside(root, real)) {
    return {
      kind: 'refused',
      reason: 'the path resolves (through a symlink) outside the served folder',
    };
  }
  if (!isVisiblePath(toPosix(path.relative(root, real)), visibility)) return MISSING;
  let stats: Stats;
  try {
    stats = await fs.stat(real);
  } catch (error) {
    if (isMissing(error) || (error as { code?: unknown }).code === 'EACCES') return MISSING;
    throw error;
  }
  return stats.isFile() ? { kind: 'file', real, stats } : MISSING;
}
