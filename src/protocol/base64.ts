/** Canonical base64 (RFC 4648 §4) checks by a linear scan: no regex, any size. */

const ALPHABET = new Uint8Array(128);
{
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < chars.length; i++) ALPHABET[chars.charCodeAt(i)] = i + 1;
}

export interface Base64Problem {
  /** Offset of the first offending character (or the length, for a bad length). */
  offset: number;
  reason: string;
}

/**
 * Finds the first problem in a base64 string, or returns undefined when it is canonical:
 * standard alphabet, length a multiple of 4, at most two '=' at the end only, and zero pad bits.
 */
export function findBase64Problem(value: string): Base64Problem | undefined {
  const n = value.length;
  let end = n;
  if (n > 0 && value.charCodeAt(n - 1) === 61) end = value.charCodeAt(n - 2) === 61 ? n - 2 : n - 1;
  for (let i = 0; i < end; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128 || ALPHABET[c] === 0) {
      return {
        offset: i,
        reason:
          c === 61
            ? "'=' padding before the end"
            : `character ${JSON.stringify(value[i])} is not in the base64 alphabet`,
      };
    }
  }
  if (n % 4 !== 0) return { offset: n, reason: `length ${n} is not a multiple of 4` };
  const pad = n - end;
  if (pad > 0) {
    // Canonical: the unused low bits of the last data character are zero.
    const last = (ALPHABET[value.charCodeAt(end - 1)] ?? 1) - 1;
    const mask = pad === 1 ? 0b11 : 0b1111;
    if ((last & mask) !== 0)
      return { offset: end - 1, reason: 'non-zero padding bits (not canonical)' };
  }
  return undefined;
}

export function isBase64(value: string): boolean {
  return findBase64Problem(value) === undefined;
}

/** Bytes a blob of `rawBytes` costs once base64-encoded. */
export function base64Length(rawBytes: number): number {
  return 4 * Math.ceil(rawBytes / 3);
}

/**
 * Bytes a base64 text decodes to, its `=` padding accounted (`'aGk='` is 2): the length of
 * canonical base64 without decoding it; an estimate for anything else.
 */
export function decodedBase64Length(text: string): number {
  const n = text.length;
  const pad =
    n > 0 && text.charCodeAt(n - 1) === 61 ? (n > 1 && text.charCodeAt(n - 2) === 61 ? 2 : 1) : 0;
  return Math.max(0, Math.floor(((n - pad) * 3) / 4));
}
