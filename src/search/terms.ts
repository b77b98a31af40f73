/**
 * How text becomes index terms, and a query becomes what it asks for. A term is one lowercase
 * identifier part: words are split at `_` and at case changes (`parseArgs` → `parse`, `args`;
 * `HTMLParser2` → `html`, `parser2`), digits stay with the letters before them. A joined
 * identifier is never a term of its own: in code nearly every one is unique, and a vocabulary of
 * millions of terms is what an index of a whole repository cannot afford. A query finds one
 * (`parseargs`) by splitting it into terms the index has.
 */

import { forEachAsciiPart } from './ascii-parts.js';

const WORD = /[\p{L}\p{N}_]+/gu;
const ONE_WORD = /^[\p{L}\p{N}_]+$/u;
// Identifier parts, found in the text directly (anything else separates them); ASCII text is
// scanned by character code (ascii-parts.ts), several times faster, for the same parts.
const PART = /\p{Lu}+(?!\p{Ll})\p{N}*|\p{Lu}?[\p{Ll}\p{N}]+|[\p{L}\p{N}]+/gu;
const NOT_ASCII = /[^\x00-\x7f]/;

/** Terms longer than this are cut (a minified line or a base64 run is not a word). */
export const MAX_TERM_LENGTH = 64;

/** Calls `each` with every term of `text` and its 1-based line, in order (repeats included). */
export function forEachTerm(text: string, each: (term: string, line: number) => void): void {
  forEachTermIn(text, (source, start, end, line) =>
    each(source.slice(start, end).toLowerCase(), line),
  );
}

/**
 * Calls `each` with every term of `text` and its 1-based line, in order (repeats included), as a
 * range of `source`, whose ASCII letters are to be read lowercased: ASCII text is its own source
 * (no string is made for a term), other text gives each term as a string of its own.
 */
export function forEachTermIn(
  text: string,
  each: (source: string, start: number, end: number, line: number) => void,
): void {
  if (!NOT_ASCII.test(text)) {
    forEachAsciiPart(text, MAX_TERM_LENGTH, (start, end, line) => each(text, start, end, line));
    return;
  }
  const parts = PART;
  parts.lastIndex = 0;
  let line = 1;
  let nextNewline = text.indexOf('\n');
  for (let found = parts.exec(text); found !== null; found = parts.exec(text)) {
    while (nextNewline !== -1 && nextNewline < found.index) {
      line++;
      nextNewline = text.indexOf('\n', nextNewline + 1);
    }
    const part = found[0];
    const term = (
      part.length > MAX_TERM_LENGTH ? part.slice(0, MAX_TERM_LENGTH) : part
    ).toLowerCase();
    each(term, 0, term.length, line);
  }
}

/** Every term of `text`, in order (repeats included). */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  forEachTerm(text, (term) => out.push(term));
  return out;
}

/** The terms of a root-relative path: its names split at `/ . - _` and case changes. */
export function pathTerms(relative: string): string[] {
  return termsOf(relative.replace(/[/.\-]/g, ' '));
}

/** Most words of a query that count (the rest are left out), and most terms of one word. */
export const MAX_QUERY_WORDS = 32;
export const MAX_WORD_TERMS = 8;

/** One word of a query: its terms (several for `parseArgs` or `snake_case`). */
export interface QueryWord {
  readonly text: string;
  readonly terms: readonly string[];
}

/** What a query asks for: files holding every word, and every phrase as written. */
export interface ParsedQuery {
  readonly words: readonly QueryWord[];
  /** Quoted phrases, whitespace collapsed, as the user wrote them (matched ignoring case). */
  readonly phrases: readonly string[];
}

/**
 * Parses a query: `"a quoted phrase"` is an exact phrase (its words are required too, so that the
 * index narrows the files to check); every other word is required. An unclosed quote quotes the
 * rest. Duplicate words count once.
 */
export function parseQuery(query: string): ParsedQuery {
  const words: QueryWord[] = [];
  const phrases: string[] = [];
  const seen = new Set<string>();
  const addWords = (text: string): void => {
    for (const [word] of text.matchAll(WORD)) {
      if (words.length >= MAX_QUERY_WORDS) return;
      const terms = termsOf(word).slice(0, MAX_WORD_TERMS);
      const key = terms.join(' ');
      if (terms.length === 0 || seen.has(key)) continue;
      seen.add(key);
      words.push({ text: word, terms });
    }
  };
  const parts = query.split('"');
  parts.forEach((part, i) => {
    if (i % 2 === 0) return addWords(part);
    const phrase = part.trim().replace(/\s+/g, ' ');
    if (phrase === '') return;
    addWords(phrase);
    if (!ONE_WORD.test(phrase)) phrases.push(phrase);
  });
  return { words, phrases };
}
