/**
 * Server-sent text made safe for a terminal: control characters, terminal escapes and the
 * characters that reorder or break lines are shown escaped, never written raw, so that a server
 * cannot move the cursor, recolour, retitle the window or make one string look like another.
 */

export interface ShownTextOptions {
  /**
   * Keep line feeds and tabs as they are (for multi-line text such as a text block); default
   * false: every C0 control is escaped, `\n` as `\n`. A carriage return is always escaped (it
   * would let a line overwrite itself).
   */
  multiline?: boolean;
}

/**
 * C0 (U+0000–001F), DEL, C1 (U+0080–009F), every format character (Cf: ALM, LRM/RLM, the bidi
 * embeddings, overrides and isolates, zero-width spaces and joiners, the word joiner, BOM, soft
 * hyphen, tag characters), the line and paragraph separators (U+2028–2029), and lone surrogates:
 * all of them either drive the terminal or make one string look like another.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\p{Cf}\u2028\u2029\ud800-\udfff]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

function escape(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.codePointAt(0) as number;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

/**
 * `value` as a terminal may show it: printable text unchanged, every unsafe character escaped
 * (`\x1b`, `\x9b`, `\u202e`, `\n`).
 *
 * @example
 * shownText('ok\x1b[2Jgone\u202e'); // 'ok\\x1b[2Jgone\\u202e'
 */
export function shownText(value: string, options: ShownTextOptions = {}): string {
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(value)) return value;
  const multiline = options.multiline === true;
  return value.replace(UNSAFE, (ch) =>
    multiline && (ch === '\n' || ch === '\t') ? ch : escape(ch),
  );
}

const JSON_UNSAFE = /[\u007f-\u009f\p{Cf}\u2028\u2029]/gu;

/**
 * `JSON.stringify` for output that may land on a terminal: JSON already escapes C0 controls;
 * this also escapes DEL, C1 and format characters (as `\uXXXX`, surrogate pairs for astral
 * ones), so the text is the same JSON, and a terminal sees no raw CSI or bidi override.
 */
export function terminalJson(value: unknown): string {
  return (JSON.stringify(value, null, 2) ?? 'null').replace(JSON_UNSAFE, (ch) =>
    Array.from(
      { length: ch.length },
      (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`,
    ).join(''),
  );
}
