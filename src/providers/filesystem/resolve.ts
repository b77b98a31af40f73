/** Maps a checked, root-relative path to a regular file inside the root, or says why not. */
import { constants, type Stats } from 'node:fs';
import * as path from 'node:path';
import {
  errorCode,
  isUnreachable,
  withoutPath,
  type ProviderFileHandle,
  type ProviderFs,
} from './fs-types.js';
import { isPlainRelative, isVisiblePath, relativeInside, type Visibility } from './paths.js';

export type Resolved =
  | { kind: 'file'; real: string; stats: Stats }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string };

/** What may be served below a root: the checks of a resolve, and again after an open. */
export interface Containment {
  /** The root as a real path. */
  readonly root: string;
  readonly visibility: Visibility;
  /** Refuse regular files with more than one hard link (default false). */
  readonly refuseHardLinks?: boolean;
}

const MISSING = { kind: 'missing' } as const;

const HARD_LINK_REASON = 'the file has more than one hard link (refuseHardLinks)';

/**
 * Resolves `relative` (a decoded template variable: POSIX separators, no root) under `root`
 * (already a real path). Refuses what would leave the root, before any I/O (`..`, an absolute
 * path, NUL, a backslash) and after `realpath` (a symlink pointing out). Hidden and ignored names
 * (also as a symlink's target), directories and special files are "missing", as is a file that
 * cannot be reached for permissions or whose name is too long for the file system. With
 * `refuseHardLinks`, a file with several hard links is refused. Nothing is opened here: see
 * {@link openInRoot} for the open that checks the result again.
 */
export async function resolveInRoot(
  fs: ProviderFs,
  root: string,
  relative: string,
  visibility: Visibility,
  options: { refuseHardLinks?: boolean } = {},
): Promise<Resolved> {
  if (relative.includes('\0'))
    return { kind: 'refused', reason: 'the path contains a NUL character' };
  if (relative.includes('\\')) return { kind: 'refused', reason: 'the path contains a backslash' };
  if (relative.startsWith('/') || path.isAbsolute(relative)) {
    return { kind: 'refused', reason: 'the path is absolute' };
  }
  // A normalised path is joined to the root as path.resolve would join it, without it.
  const plain = path.sep === '/' && isPlainRelative(relative);
  const absolute = plain
    ? `${root.endsWith('/') ? root : `${root}/`}${relative}`
    : path.resolve(root, relative);
  const rel = plain ? relative : relativeInside(root, absolute);
  if (rel === undefined) return { kind: 'refused', reason: 'the path leaves the served folder' };
  if (rel === '' || !isVisiblePath(rel, visibility)) return MISSING;
  let real: string;
  try {
    real = await fs.realpath(absolute);
  } catch (error) {
    if (errorCode(error) === 'ELOOP')
      return { kind: 'refused', reason: 'the path is a symlink loop' };
    if (isUnreachable(error)) return MISSING;
    throw withoutPath(error, 'cannot resolve the path');
  }
  const realRel = relativeInside(root, real);
  if (realRel === undefined) {
    return {
      kind: 'refused',
      reason: 'the path resolves (through a symlink) outside the served folder',
    };
  }
  if (!isVisiblePath(realRel, visibility)) return MISSING;
  let stats: Stats;
  try {
    stats = await fs.stat(real);
  } catch (error) {
    if (isUnreachable(error) || errorCode(error) === 'ELOOP') return MISSING;
    throw withoutPath(error, 'cannot inspect the file');
  }
  if (!stats.isFile()) return MISSING;
  if (options.refuseHardLinks === true && stats.nlink > 1)
    return { kind: 'refused', reason: HARD_LINK_REASON };
  return { kind: 'file', real, stats };
}

/**
 * Opening flags: read-only; never through a symlink as the last component (O_NOFOLLOW); and never
 * waiting on a FIFO or device swapped in after the check (O_NONBLOCK, which regular files ignore).
 */
export const OPEN_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Whether an open failed because the file may not be served from here (answered "not found"):
 * unreachable, a permission denied, ELOOP (the last component became a symlink after the check;
 * never followed), ENXIO (a device or socket that cannot be opened so), EPERM (not ours to open).
 */
function cannotOpen(error: unknown): boolean {
  const code = errorCode(error);
  return isUnreachable(error) || code === 'ELOOP' || code === 'ENXIO' || code === 'EPERM';
}

/**
 * Whether this process may read the file at `real`: `fs.access` when the seam has it (one call,
 * nothing opened), else an open and a close. The listing asks it, so that it never lists a file
 * that a read would answer "not found" for (mode 600 of another owner, an ACL, a mandatory
 * access control): an unreadable file is left out everywhere, and reads as missing.
 */
export async function canRead(fs: ProviderFs, real: string): Promise<boolean> {
  try {
    if (fs.access) await fs.access(real);
    else await (await fs.open(real, OPEN_FLAGS)).close();
    return true;
  } catch (error) {
    if (cannotOpen(error)) return false;
    throw withoutPath(error, 'cannot check the file');
  }
}

export type Opened =
  | { kind: 'open'; handle: ProviderFileHandle; stats: Stats }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string };

const MOVED_REASON =
  'the file changed while it was opened and is no longer inside the served folder';

/**
 * Opens `real` (a path {@link resolveInRoot} checked) and checks that what was opened is still a
 * regular file inside the root. The open walks the path again, and O_NOFOLLOW guards only its last
 * component: a parent directory swapped for a symlink in between would open a file elsewhere.
 * So after the open, where the descriptor really points is checked: on Linux the kernel's path of
 * the descriptor (`/proc/self/fd`) must lie inside the root, on a visible path; elsewhere the path
 * is resolved again, must still lie inside the root, and must name the same file (device and
 * inode) as the descriptor. Anything else is refused, the handle closed, no byte read.
 * On success the caller owns (and closes) the handle; on any other way out it is closed here.
 */
export async function openInRoot(
  fs: ProviderFs,
  real: string,
  within: Containment,
): Promise<Opened> {
  let handle: ProviderFileHandle;
  try {
    handle = await fs.open(real, OPEN_FLAGS);
  } catch (error) {
    if (cannotOpen(error)) return MISSING;
    throw withoutPath(error, 'cannot open the file');
  }
  let opened: Opened | undefined;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return (opened = MISSING);
    const problem = await checkOpened(fs, handle, stats, real, within);
    if (problem) return (opened = problem);
    if (within.refuseHardLinks === true && stats.nlink > 1)
      return (opened = { kind: 'refused', reason: HARD_LINK_REASON });
    return (opened = { kind: 'open', handle, stats });
  } finally {
    if (opened?.kind !== 'open') await handle.close();
  }
}

/** `use` of `real` opened by {@link openInRoot}, then closed; else what the open answered. */
export async function withOpened<T>(
  fs: ProviderFs,
  real: string,
  within: Containment,
  use: (handle: ProviderFileHandle, stats: Stats) => Promise<T>,
): Promise<T | Exclude<Opened, { kind: 'open' }>> {
  const opened = await openInRoot(fs, real, within);
  if (opened.kind !== 'open') return opened;
  try {
    return await use(opened.handle, opened.stats);
  } finally {
    await opened.handle.close();
  }
}

/** Why the file behind `handle` may not be served, or undefined when it is the checked one. */
async function checkOpened(
  fs: ProviderFs,
  handle: ProviderFileHandle,
  stats: Stats,
  real: string,
  { root, visibility }: Containment,
): Promise<Opened | undefined> {
  const servable = (where: string): boolean => {
    const rel = relativeInside(root, where);
    return rel !== undefined && isVisiblePath(rel, visibility);
  };
  const where = typeof handle.fd === 'number' ? await fs.fdPath?.(handle.fd) : undefined;
  // A deleted file shows as "<path> (deleted)": tell that apart by resolving again.
  if (where !== undefined && path.isAbsolute(where) && !where.endsWith(' (deleted)')) {
    return servable(where) ? undefined : { kind: 'refused', reason: MOVED_REASON };
  }
  let again: string;
  let now: Stats;
  try {
    again = await fs.realpath(real);
    if (!servable(again)) return { kind: 'refused', reason: MOVED_REASON };
    now = await fs.stat(again);
  } catch (error) {
    if (isUnreachable(error) || errorCode(error) === 'ELOOP') return MISSING;
    throw withoutPath(error, 'cannot check the opened file');
  }
  return now.dev === stats.dev && now.ino === stats.ino
    ? undefined
    : { kind: 'refused', reason: MOVED_REASON };
}
