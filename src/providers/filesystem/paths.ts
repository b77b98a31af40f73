/** Path checks of the filesystem provider: containment, visibility and URI <-> path mapping. */
import * as path from 'node:path';

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
  return relative
    .split('/')
    .every((segment) => segment === '' || isVisibleName(segment, visibility));
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

/** Paths that start with `prefix`, then paths that contain it (case-insensitive). */
export function completePaths(paths: readonly string[], prefix: string): PathCompletion {
  const lower = prefix.toLowerCase();
  const starts = paths.filter((p) => p.startsWith(prefix));
  const startSet = new Set(starts);
  const contains = paths.filter((p) => !startSet.has(p) && p.toLowerCase().includes(lower));
  const all = [...starts, ...contains];
  return { values: all.slice(0, 100), total: all.length, hasMore: all.length > 100 };
}
