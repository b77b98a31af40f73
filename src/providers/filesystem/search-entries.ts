/**
 * The entries of a search's artifact past its returned links (search-tool.ts), written as JSON
 * where the index runs (the search worker): the main thread splices the text into the artifact
 * instead of receiving, looking up and encoding a thousand objects per answer, which held up
 * every other request while four searches ran (docs/search-index.md).
 */
import type { IndexMatch } from '../../search/text-index.js';

/** The matches past the returned links, as the artifact lists them. */
export interface MoreEntries {
  /** Their artifact entries (`{uri, name, where, line?}`), best first, comma-separated ('' none). */
  readonly json: string;
  /** How many entries `json` holds, and how many of them matched by name. */
  readonly count: number;
  readonly names: number;
}

/**
 * The artifact entries of `matches`, each `{"uri","name","where","line"}` as
 * `JSON.stringify` would write that object (`line` only with `lines` and when known).
 */
export function moreEntries(
  matches: readonly IndexMatch[],
  uriOf: (path: string) => string,
  lines: boolean,
): MoreEntries {
  const parts: string[] = new Array<string>(matches.length);
  let names = 0;
  for (let i = 0; i < matches.length; i++) {
    const { path, where, line } = matches[i]!;
    if (where !== 'content') names++;
    const at = lines && line !== undefined ? `,"line":${line}` : '';
    parts[i] =
      `{"uri":${JSON.stringify(uriOf(path))},"name":${JSON.stringify(path)},"where":"${where}"${at}}`;
  }
  return { json: parts.join(','), count: matches.length, names };
}
