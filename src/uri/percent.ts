/** Percent-encoding (RFC 3986 §2.1) for template expansion and matching. Linear loops, no regex. */

const UNRESERVED_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
const RESERVED_CHARS = ":/?#[]@!$&'()*+,;=";

/** 1 for unreserved ASCII, 2 for reserved ASCII, 0 otherwise. */
const CLASS = new Uint8Array(128);
for (let i = 0; i < UNRESERVED_CHARS.length; i++) CLASS[UNRESERVED_CHARS.charCodeAt(i)] = 1;
for (let i = 0; i < RESERVED_CHARS.length; i++) CLASS[RESERVED_CHARS.charCodeAt(i)] = 2;

const HEX = '0123456789ABCDEF';

/** ALPHA / DIGIT / `-._~` (RFC 3986 §2.3). */
export function isUnreservedCode(c: number): boolean {
  return c < 128 && CLASS[c] === 1;
}

/** gen-delims and sub-delims (RFC 3986 §2.2). */
export function isReservedCode(c: number): boolean {
  return c < 128 && CLASS[c] === 2;
}

/** 0-9, A-F, a-f. */
export function isHexCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** True when `s` holds a percent-encoded triplet at `i` (NaN past the end fails `isHexCode`). */
export function isTripletAt(s: string, i: number): boolean {
  return s.charCodeAt(i) === 37 && isHexCode(s.charCodeAt(i + 1)) && isHexCode(s.charCodeAt(i + 2));
}

function pct(byte: number): string {
  return '%' + HEX[byte >> 4] + HEX[byte & 15];
}

/**
 * Encodes `value` for a template expansion: unreserved characters pass through; with
 * `allowReserved` (the `+` and `#` operators, and template literals) reserved characters and
 * existing `%XX` triplets pass through too. Everything else becomes UTF-8 `%XX`; a lone surrogate
 * becomes U+FFFD instead of throwing like `encodeURIComponent` does.
 */
export function encodeValue(value: string, allowReserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 128) {
      const cls = CLASS[c];
      if (cls === 1 || (allowReserved && cls === 2)) out += value[i];
      else if (allowReserved && isTripletAt(value, i)) {
        out += value.slice(i, i + 3);
        i += 2;
      } else out += pct(c);
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      } else cp = 0xfffd;
    } else if (c >= 0xdc00 && c <= 0xdfff) cp = 0xfffd;
    if (cp < 0x800) out += pct(0xc0 | (cp >> 6)) + pct(0x80 | (cp & 63));
    else if (cp < 0x10000) {
      out += pct(0xe0 | (cp >> 12)) + pct(0x80 | ((cp >> 6) & 63)) + pct(0x80 | (cp & 63));
    } else {
      out +=
        pct(0xf0 | (cp >> 18)) +
        pct(0x80 | ((cp >> 12) & 63)) +
        pct(0x80 | ((cp >> 6) & 63)) +
        pct(0x80 | (cp & 63));
    }
  }
  return out;
}

/**
 * Percent-decodes `s` as UTF-8. Returns undefined instead of throwing on a malformed triplet or
 * invalid UTF-8 (including overlong forms such as `%C0%AE`, an old way to smuggle a dot).
 * `+` stays `+`: form encoding is not URI encoding.
 *
 * @example
 * decodeComponent('caf%C3%A9'); // 'café'
 * decodeComponent('%E0%A4%A'); // undefined
 */
export function decodeComponent(s: string): string | undefined {
  if (s.indexOf('%') < 0) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** The first `n` Unicode code points of a decoded string (RFC 6570 prefixes count characters). */
export function codePointPrefix(value: string, n: number): string {
  let i = 0;
  for (let count = 0; count < n && i < value.length; count++) {
    const c = value.charCodeAt(i);
    const d = value.charCodeAt(i + 1);
    i += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
  }
  return value.slice(0, i);
}

/**
 * The end offset, in an encoded string, of its first `n` code points, plus how many code points
 * it holds (`count < n` when the string is shorter). UTF-8 continuation bytes (`10xxxxxx`) do not
 * start a code point, so encoded values can be measured without decoding them.
 */
export function encodedCodePoints(raw: string, n: number): { end: number; count: number } {
  let i = 0;
  let count = 0;
  while (i < raw.length) {
    const triplet = isTripletAt(raw, i);
    const byte = triplet ? parseInt(raw.slice(i + 1, i + 3), 16) : 0;
    if (!triplet || (byte & 0xc0) !== 0x80) {
      if (count === n) break;
      count++;
    }
    i += triplet ? 3 : 1;
  }
  return { end: i, count };
}
