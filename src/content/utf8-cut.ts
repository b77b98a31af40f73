/** Where a run of UTF-8 bytes may be cut without splitting a character; pure, on buffers. */

/** Most continuation bytes after a lead byte (a 4-byte sequence has 3). */
export const MAX_CONTINUATIONS = 3;

const NEWLINE = 0x0a;

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Bytes of the sequence `lead` starts: 2 to 4 for a lead byte, else 1 (ASCII, or a stray byte). */
export function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

/**
 * The last position at or before `at` (never before `floor`) where a character starts: `at`
 * itself unless the byte there continues a sequence whose lead byte sits at most 3 bytes
 * earlier, then that lead byte. Bytes that are not UTF-8 are left alone (a fatal decode finds
 * them). Idempotent: a position it returns maps to itself, so that the end of one part read
 * again as the start of the next moves nowhere.
 */
export function boundaryAtOrBefore(bytes: Uint8Array, at: number, floor = 0): number {
  if (at >= bytes.length || !isContinuation(bytes[at] as number)) return at;
  for (let i = at - 1; i >= Math.max(floor, at - MAX_CONTINUATIONS); i--) {
    const byte = bytes[i] as number;
    if (isContinuation(byte)) continue;
    return i + sequenceLength(byte) > at ? i : at;
  }
  return at;
}

/**
 * Where a text part that starts at `start` and may hold the bytes up to `end` (not the end of the
 * file) ends: after its last newline when that newline lies in the second half, else at the last
 * character boundary; and never before the end of its first character, so that a walk always
 * moves on. `bytes` must hold the bytes around `end` (3 after it, where the file has them).
 */
export function textPartEnd(bytes: Uint8Array, start: number, end: number): number {
  const half = start + Math.floor((end - start) / 2);
  const newline = bytes.subarray(half, end).lastIndexOf(NEWLINE);
  const cut = newline >= 0 ? half + newline + 1 : boundaryAtOrBefore(bytes, end, start);
  if (cut > start) return cut;
  return Math.min(start + sequenceLength(bytes[start] as number), bytes.length);
}
