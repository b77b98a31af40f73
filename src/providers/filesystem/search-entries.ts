/**
 * The entries of a search's artifact past its returned links (search-tool.ts), written as JSON
 * where the index runs (the search worker): the main thread splices the text into the artifact
 * instead of receiving, looking up and encoding a thousand objects per answer, which held up
 * every other request while four searches ran (docs/search-index.md).
 */
import type { IndexMatch } from '../../search/text-index.js';

/**
 * `JSON.stringify(value)` with every character past U+00FF written as a `\u` escape: the same
 * JSON value, and a string V8 keeps at one byte a character. One snippet's `…` would otherwise
 * make a whole artifact of a thousand entries two bytes a character, in every copy of it.
 */
export function latin1Json(value: unknown): string {
  const json = JSON.stringify(value);
  return WIDE.test(json) ? json.replace(WIDE_ALL, escapeWide) : json;
}

const WIDE = /[\u0100-\uffff]/;
const WIDE_ALL = /[\u0100-\uffff]/g;
const escapeWide = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

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
      `{"uri":${latin1Json(uriOf(path))},"name":${latin1Json(path)},"where":"${where}"${at}}`;
  }
  return { json: parts.join(','), count: matches.length, names };
}
