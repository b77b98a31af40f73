/**
 * Where a JSON text may be cut so that what is kept is still JSON: after a whole member of its
 * top-level array or object, then closed. Nothing nested is split, and no string is cut.
 */

export interface JsonCut {
  /** Kept: `text.slice(0, end) + closer`. */
  end: number;
  closer: string;
  /** Top-level members kept, and in all. */
  kept: number;
  total: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True when `text` parses as JSON whose top level is an array or an object. */
export function isJsonContainer(text: string): boolean {
  const first = text.trimStart()[0];
  if (first !== '[' && first !== '{') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The longest cut whose kept text (closer included) is at most `maxLength` UTF-16 units, keeping
 * at least one member; undefined when not even one fits. `text` must be valid JSON (`isJsonContainer`).
 */
export function jsonCut(text: string, maxLength: number): JsonCut | undefined {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) !== 0x5b && text.charCodeAt(i) !== 0x7b) i++;
  const closer = text[i] === '[' ? ']' : '}';
  let depth = 0;
  let inString = false;
  let best: JsonCut | undefined;
  let members = 0;
  let total = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && depth === 1) {
      members++;
      if (i + closer.length <= maxLength) best = { end: i, closer, kept: members, total: 0 };
    }
    if (depth === 0) break;
  }
  total = members + 1;
  if (best) best.total = total;
  return best;
}
