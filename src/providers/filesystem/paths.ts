/** Path checks of the filesystem provider: containment, visibility and URI <-> path mapping. */
import * as path from 'node:path';
import { McpKitError } from '../../errors/mcpkit-error.js';

/** Whether `target` (absolute, normalized) is `root` or lies below it. */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  if (rel === '') return true;
  if (path.isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${path.sep}`);
}

/** A path relative to the root, with `/` separators whatever the platform. */
export function toPosix(relative: string): string {
  return path.sep === '/' ? relative : relative.split(path.sep).join('/');
}

/**
 * Where `target` lies below `root` (both absolute), as a POSIX path (`''` for the root itself),
 * or undefined when it lies outside. A prefix check where it decides (a real path below the
 * root: the usual case, without `path.relative`), else {@link isInside}.
 */
export function relativeInside(root: string, target: string): string | undefined {
  if (
    path.sep === '/' &&
    root !== '/' &&
    target.length > root.length + 1 &&
    target.startsWith(root) &&
    target.charCodeAt(root.length) === 47 /* / */
  ) {
    const rest = target.slice(root.length + 1);
    if (isPlainRelative(rest)) return rest;
  }
  return isInside(root, target) ? toPosix(path.relative(root, target)) : undefined;
}

/**
 * Whether a root-relative POSIX path is normalised already: segments that are neither empty,
 * `.` nor `..`, no leading `/`, no backslash. Joined to a root with `/`, it is what
 * `path.resolve` would make of it (on POSIX systems).
 */
export function isPlainRelative(relative: string): boolean {
  if (relative === '' || relative.includes('\\')) return false;
  let start = 0;
  for (;;) {
    const end = relative.indexOf('/', start);
    const stop = end === -1 ? relative.length : end;
    const n = stop - start;
    if (n === 0) return false;
    if (
      relative.charCodeAt(start) === 46 /* . */ &&
      (n === 1 || (n === 2 && relative.charCodeAt(start + 1) === 46))
    )
      return false;
    if (end === -1) return true;
    start = end + 1;
  }
}

/** Which names are left out of the listing and refused as reads. */
export interface Visibility {
  /** Serve dot-files and dot-directories (`.git`, `.env`, …); default false. */
  readonly hidden: boolean;
  /** File or directory names never served, at any depth (default `node_modules`). */
  readonly ignore: ReadonlySet<string>;
}

/** Whether one name (a path segment) is served. */
export function isVisibleName(name: string, visibility: Visibility): boolean {
  if (!visibility.hidden && name.startsWith('.')) return false;
  return !visibility.ignore.has(name);
}

/** Whether every segment of a root-relative POSIX path is served. */
export function isVisiblePath(relative: string, visibility: Visibility): boolean {
  const { hidden, ignore } = visibility;
  let start = 0;
  for (;;) {
    const end = relative.indexOf('/', start);
    const stop = end === -1 ? relative.length : end;
    if (stop > start) {
      if (!hidden && relative.charCodeAt(start) === 46 /* . */) return false;
      if (ignore.size > 0 && ignore.has(relative.slice(start, stop))) return false;
    }
    if (end === -1) return true;
    start = end + 1;
  }
}

/**
 * Characters of a path that `{+path}` would pass through but that do not belong in a URI path:
 * the gen-delims other than `/` (RFC 3986 §2.2: `:` `?` `#` `[` `]` `@`), and `%` (a literal
 * percent sign, which would otherwise read as an escape). Encoded before the expansion, which
 * keeps `%XX` triplets as they are; the template's match decodes them back.
 */
const ESCAPED_IN_PATH = /[%:?#[\]@]/g;

export function escapePath(relative: string): string {
  return relative.replace(
    ESCAPED_IN_PATH,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** What `path` completes to: the values shown (at most 100), how many match, whether more do. */
export interface PathCompletion {
  values: string[];
  total: number;
  hasMore: boolean;
}

/** Paths that start with `prefix` as typed, then paths that contain it in any case. */
export function completePaths(paths: readonly string[], prefix: string): PathCompletion {
  const lower = prefix.toLowerCase();
  const starts = paths.filter((p) => p.startsWith(prefix));
  const startSet = new Set(starts);
  const contains = paths.filter((p) => !startSet.has(p) && p.toLowerCase().includes(lower));
  const all = [...starts, ...contains];
  return { values: all.slice(0, 100), total: all.length, hasMore: all.length > 100 };
}

/** `prefix` when it is a usable `uriPrefix`: an absolute URI ending with `/`, without braces. */
export function checkedUriPrefix(prefix: string): string {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:[^{}]*\/$/.test(prefix)) return prefix;
  throw new McpKitError(
    'INVALID_URI',
    `uriPrefix ${JSON.stringify(prefix)} must be an absolute URI ending with "/", without braces`,
  );
}
