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
