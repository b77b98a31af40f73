/** Finding a query in one file's text: where it first matches, its line, a passage around it. */
import type { ParsedQuery } from '../../search/terms.js';

const SNIPPET_SIDE = 60;

/** A passage of about 120 characters around `index`, on one line, with ellipses where cut. */
export function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - SNIPPET_SIDE);
  const end = Math.min(text.length, index + length + SNIPPET_SIDE);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where `phrase` occurs in `text` (case and runs of whitespace ignored), or -1. */
export function phraseAt(text: string, phrase: string): number {
  const pattern = new RegExp(phrase.split(' ').map(escape).join('\\s+'), 'iu');
  return pattern.exec(text)?.index ?? -1;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const UPPER = /\p{Lu}/u;

/** Whether a word or identifier part starts at `i` (`Args` in `parseArgs`, not `rg` in it). */
function startsPart(text: string, i: number): boolean {
  const before = text[i - 1];
  if (before === undefined || !LETTER_OR_DIGIT.test(before)) return true;
  return UPPER.test(text[i] ?? '') && !UPPER.test(before);
}

/** Where `word` first occurs at a word or part start (else anywhere), ignoring case, or -1. */
function wordAt(text: string, lower: string, word: string): number {
  const needle = word.toLowerCase();
  let first = -1;
  for (let i = lower.indexOf(needle); i !== -1; i = lower.indexOf(needle, i + 1)) {
    if (startsPart(text, i)) return i;
    if (first < 0) first = i;
  }
  return first;
}

/** The 1-based line and a snippet of the first place the query matches in `text`. */
export function firstMatch(
  text: string,
  query: ParsedQuery,
): { line: number; snippet: string } | undefined {
  const phrase = query.phrases[0];
  let at = phrase !== undefined ? phraseAt(text, phrase) : -1;
  let length = phrase?.length ?? 0;
  if (at < 0) {
    // The first word as written (`parseArgs`), else its first term that occurs.
    const lower = text.toLowerCase();
    for (const word of query.words) {
      for (const candidate of [word.text, ...word.terms]) {
        at = lower.length === text.length ? wordAt(text, lower, candidate) : -1;
        if (at >= 0) {
          length = candidate.length;
          break;
        }
      }
      if (at >= 0) break;
    }
  }
  if (at < 0) return undefined;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return { line, snippet: snippetAround(text, at, length) };
}
