/**
 * The entries of a search's artifact past its returned links (search-tool.ts), written as JSON
 * where the index runs (the search worker): the main thread splices the text into the artifact
 * instead of receiving, looking up and encoding a thousand objects per answer, which held up
 * every other request while four searches ran (docs/search-index.md).
 */
import type { IndexMatch } from '../../search/text-index.js';

/**
 * `JSON.stringify(value)` with every character past U+007E written as a `\u` escape: the same
 * JSON value in ASCII, which V8 keeps at one byte a character (one snippet's `…` would make a
 * whole artifact of a thousand entries two bytes a character, in every copy of it) and which
 * crosses from the worker as bytes.
 */
export function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  return WIDE.test(json) ? json.replace(WIDE_ALL, escapeWide) : json;
}

const WIDE = /[\u007f-\uffff]/;
const WIDE_ALL = /[\u007f-\uffff]/g;
const escapeWide = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The matches past the returned links, as the artifact lists them. */
export interface MoreEntries {
  /**
   * Their artifact entries (`{uri, name, where, line?}`), best first, comma-separated, as ASCII
   * bytes (none: empty). Bytes, not a string: written before the hits' snippets are read, a
   * string this large would outlive those reads and be promoted to the old generation, garbage
   * that only a full collection frees (the worker's heap grew by hundreds of MiB under
   * four searches at once).
   */
  readonly json: Uint8Array;
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
  let out = Buffer.allocUnsafeSlow(Math.max(256, matches.length * 192));
  let size = 0;
  let names = 0;
  for (let i = 0; i < matches.length; i++) {
    const { path, where, line } = matches[i]!;
    if (where !== 'content') names++;
    const at = lines && line !== undefined ? `,"line":${line}` : '';
    const entry = `${i > 0 ? ',' : ''}{"uri":${asciiJson(uriOf(path))},"name":${asciiJson(path)},"where":"${where}"${at}}`;
    if (size + entry.length > out.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(out.length * 2, size + entry.length));
      out.copy(grown, 0, 0, size);
      out = grown;
    }
    size += out.write(entry, size, 'latin1');
  }
  return { json: new Uint8Array(out.subarray(0, size)), count: matches.length, names };
}

/** The entries as text (ASCII: one byte a character). */
export function entriesText(json: Uint8Array): string {
  return Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('latin1');
}
