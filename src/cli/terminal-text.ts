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
 * C0 (U+0000–001F), DEL, C1 (U+0080–009F), ALM (U+061C), LRM/RLM (U+200E–200F), the line and
 * paragraph separators (U+2028–2029), the bidi embeddings and overrides (U+202A–202E) and
 * isolates (U+2066–2069), and lone surrogates.
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

function escape(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
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
