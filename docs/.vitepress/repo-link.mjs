// Where a link of a docs page that leaves docs/ points on the site: the file in the repository.
import { posix } from 'node:path';

export const REPOSITORY = 'https://github.com/mcpkit/mcpkit';

/**
 * The repository path a relative `href` of a page in `pageDir` (relative to docs/) names when it
 * leaves docs/ (`../examples/notes/`), or undefined for every other link.
 */
export function repoPath(pageDir, href) {
  if (/^[a-z][a-z0-9+.-]*:|^#|^\//i.test(href)) return undefined;
  const path = href.split('#')[0];
  const joined = posix.normalize(posix.join('docs', pageDir, path));
  return joined.startsWith('docs/') || joined === 'docs' ? undefined : joined;
}

/** The GitHub URL for such a link, or undefined. */
export function repoLink(pageDir, href) {
  const path = repoPath(pageDir, href);
  if (path === undefined) return undefined;
  const kind = path.endsWith('/') ? 'tree' : 'blob';
  const hash = href.includes('#') ? href.slice(href.indexOf('#')) : '';
  return `${REPOSITORY}/${kind}/main/${path}${hash}`;
}
