/**
 * The URIs of a served folder's files, `${prefix}{+path}`: a root-relative path to its URI and
 * back, by the template alone (no I/O).
 */
import { matchSafely, parseTemplate, type UriTemplate } from '../../uri/index.js';
import { checkedUriPrefix, escapePath } from './paths.js';

/** Characters that `{+path}` expansion and {@link escapePath} both leave as they are. */
const PLAIN_PATH = /^[A-Za-z0-9._~/-]*$/;

/** Maps root-relative paths to `${prefix}{+path}` URIs and back. */
export class FolderUris {
  /** The URI prefix, checked (`file:///` by default). */
  readonly prefix: string;
  /** `${prefix}{+path}`. */
  readonly template: string;
  private readonly parsed: UriTemplate;

  constructor(prefix = 'file:///') {
    this.prefix = checkedUriPrefix(prefix);
    this.template = `${this.prefix}{+path}`;
    this.parsed = parseTemplate(this.template);
  }

  /**
   * The URI of a root-relative path, by template expansion: `%` and the gen-delims other than
   * `/` (`:` `?` `#` `[` `]` `@`) are percent-encoded first, so `notes[1].md` is
   * `file:///notes%5B1%5D.md`, a valid RFC 3986 URI that {@link pathOf} maps back.
   */
  uriOf(relative: string): string {
    // Expansion builds a string of many pieces (~1.5 KB a URI); this one shares the path's bytes.
    if (PLAIN_PATH.test(relative)) return this.prefix + relative;
    return this.parsed.expand({ path: escapePath(relative) });
  }

  /** The root-relative path a URI names, decoded and checked; undefined if it is not ours or unsafe. */
  pathOf(uri: string): string | undefined {
    const match = matchSafely(this.parsed, uri);
    const value = match?.ok ? match.variables['path'] : undefined;
    return typeof value === 'string' ? value : undefined;
  }

  /** The URI a listed file gets; undefined when it would not map back to `relative` (not listed). */
  listedUri(relative: string): string | undefined {
    const uri = this.uriOf(relative);
    return this.pathOf(uri) === relative ? uri : undefined;
  }
}
