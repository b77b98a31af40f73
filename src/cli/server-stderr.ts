/**
 * The tail of a stdio server's captured stderr, as `inspect` and `audit` show it with a failure
 * (and always with `--verbose`): where a handler's real error is, which the answer only names as
 * "Internal error". Bounded and escaped: it is the server's text.
 */
import { shownText } from './terminal-text.js';

/** The most lines and bytes of stderr shown. */
export const STDERR_TAIL_LINES = 20;
export const STDERR_TAIL_BYTES = 4096;

/**
 * The section to print, ending in a newline, or '' when the server wrote nothing: a heading,
 * then the last lines (at most 20 and 4 KiB), each escaped for the terminal and indented.
 */
export function stderrSection(text: string): string {
  // Not `replace(/\s+$/)`: quadratic on a long run of blanks that does not end the text.
  let tail = trimmedTail(text);
  if (tail === '') return '';
  let cut = false;
  if (tail.length > STDERR_TAIL_BYTES) {
    tail = tail.slice(-STDERR_TAIL_BYTES);
    // The first line is partial: dropped unless it is the only one.
    const nl = tail.indexOf('\n');
    if (nl >= 0) tail = tail.slice(nl + 1);
    cut = true;
  }
  let lines = tail.split('\n');
  if (lines.length > STDERR_TAIL_LINES) {
    lines = lines.slice(-STDERR_TAIL_LINES);
    cut = true;
  }
  const heading = cut
    ? `the server's stderr (its last ${lines.length} lines):`
    : "the server's stderr:";
  return `${heading}\n${lines.map((line) => `  | ${shownText(line.replace(/\r$/, ''))}`).join('\n')}\n`;
}

const BLANK = /\s/;

/** `text` without its trailing white space, `STDERR_TAIL_BYTES + 1` characters of it at most. */
function trimmedTail(text: string): string {
  let end = text.length;
  while (end > 0 && BLANK.test(text[end - 1] as string)) end--;
  return text.slice(Math.max(0, end - STDERR_TAIL_BYTES - 1), end);
}
