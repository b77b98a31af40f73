/** Finding a query in one file's text: its first match, a passage around it and its line. */

/** Where a file's text matched: a passage around it and its line. */
export interface Passage {
  snippet: string;
  line: number;
}

/**
 * A longer text is matched a piece of this many UTF-16 units at a time, with a pause between
 * pieces (a piece takes well under a millisecond to match for most queries).
 */
export const PIECE_CHARS = 256 * 1024;

/** Runs between two pieces of a long text: may yield to the event loop, or throw to stop. */
export type Between = () => void | Promise<void>;

const SNIPPET_SIDE = 60;

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A passage of about 120 characters around `index`, on one line, with ellipses where cut. */
export function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - SNIPPET_SIDE);
  const end = Math.min(text.length, index + length + SNIPPET_SIDE);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The first match of `pattern` (a literal query, no `g` or `y` flag) in `text`, or undefined.
 * A text longer than {@link PIECE_CHARS} is matched piece by piece with `between` run between
 * pieces; pieces overlap by `longest`, the most UTF-16 units a match may take, so that a match
 * across a piece's end is found whole. Without a promise when the text is one piece.
 */
export function passageIn(
  text: string,
  pattern: RegExp,
  longest: number,
  between: Between,
): Passage | undefined | Promise<Passage | undefined> {
  if (text.length <= PIECE_CHARS) {
    const found = pattern.exec(text);
    if (!found) return undefined;
    const snippet = snippetAround(text, found.index, found[0].length);
    return { snippet, line: 1 + newlines(text, 0, found.index) };
  }
  return passageInPieces(text, pattern, longest, between);
}

async function passageInPieces(
  text: string,
  pattern: RegExp,
  longest: number,
  between: Between,
): Promise<Passage | undefined> {
  for (let start = 0; start < text.length; start += PIECE_CHARS) {
    if (start > 0) await between();
    const found = pattern.exec(text.slice(start, start + PIECE_CHARS + longest));
    // One starting past this piece is the next piece's to find: an earlier one may start there.
    if (!found || found.index >= PIECE_CHARS) continue;
    const index = start + found.index;
    const snippet = snippetAround(text, index, found[0].length);
    let line = 1;
    for (let from = 0; from < index; from += PIECE_CHARS) {
      if (from > 0) await between();
      line += newlines(text, from, Math.min(index, from + PIECE_CHARS));
    }
    return { snippet, line };
  }
  return undefined;
}
