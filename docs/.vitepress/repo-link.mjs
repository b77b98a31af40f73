// Where a link of a docs page that leaves docs/ points on the site: the file in the repository.
import { posix } from 'node:path';

export const REPOSITORY = 'https://github.com/mcpkit/mcpkit';

/**
 * The repository path a relative `href` of a page in `pageDir` (relative to docs/) names when it
 * is not a page of the site: a file outside docs/ (`../examples/notes/`), or a file of docs/
 * that is not markdown (`bridge-profile.schema.json`, not copied into the site). Undefined for
 * every other link.
 */
export function repoPath(pageDir, href) {
  if (/^[a-z][a-z0-9+.-]*:|^#|^\//i.test(href)) return undefined;
  const path = href.split('#')[0];
  const joined = posix.normalize(posix.join('docs', pageDir, path));
  const inDocs = joined.startsWith('docs/') || joined === 'docs';
  const ext = posix.extname(joined);
  return inDocs && (ext === '' || ext === '.md' || ext === '.html') ? undefined : joined;
}

/** The GitHub URL for such a link, or undefined. */
export function repoLink(pageDir, href) {
  const path = repoPath(pageDir, href);
  if (path === undefined) return undefined;
  const kind = path.endsWith('/') ? 'tree' : 'blob';
  const hash = href.includes('#') ? href.slice(href.indexOf('#')) : '';
  return `${REPOSITORY}/${kind}/main/${path}${hash}`;
}
