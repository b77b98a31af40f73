/**
 * A part for a connection that streams bodies (HTTP), read from the file as the client takes it,
 * never held whole: a blob part re-reads its range a chunk at a time; a text part is first scanned
 * a window at a time (its end, that it is UTF-8, its exact JSON size), then re-read, decoded and
 * escaped a chunk at a time. The cut is the in-memory read's (read-part.ts): the same part.
 */
import { isUtf8 } from 'node:buffer';
import type { Stats } from 'node:fs';
import { asBlobString, base64Body, streamedBody } from '../../content/streamed-body.js';
import { boundaryAtOrBefore, MAX_CONTINUATIONS, sequenceLength } from '../../content/utf8-cut.js';
import type { ProviderFileHandle, ProviderFs } from './fs-types.js';
import { CHANGED } from './read-file.js';
import { readRange } from './read-range.js';
import type { Containment } from './resolve.js';
import { fileChunks } from './streamed-file.js';
import type { StreamLimits } from './stream-steps.js';

/** The file a streamed part is read from again, and the version it must still be. */
export interface PartFile {
  readonly fs: ProviderFs;
  readonly within: Containment;
  readonly real: string;
  /** Root-relative: what errors name. */
  readonly relative: string;
  readonly version: Stats;
  readonly limits?: StreamLimits | undefined;
}

/** A part's bytes and body, too large a part, or the file moved while it was scanned. */
export type PartCut =
  | { offset: number; length: number; body: { text: string } | { blob: string } }
  | { tooLarge: number }
  | typeof CHANGED;

/** Bytes scanned per read: what a scan holds, whatever the size of the part. */
const WINDOW_BYTES = 128 * 1024;
const NEWLINE = 0x0a;

/** JSON string bytes of each byte of valid UTF-8 (a multi-byte character costs its bytes). */
const COST = new Uint8Array(256).fill(1);
for (let b = 0; b < 0x20; b++)
  COST[b] = b === 8 || b === 9 || b === 10 || b === 12 || b === 13 ? 2 : 6;
COST[0x22] = 2;
COST[0x5c] = 2;

/** The raw bytes [start, start + length) as a streamed blob string. */
export function streamedBlobPart(file: PartFile, start: number, length: number): string {
  const { fs, within, real, relative, version, limits } = file;
  const chunks = () => fileChunks(fs, within, real, relative, version, limits, { start, length });
  return asBlobString(base64Body({ size: length, chunks }));
}

async function* textChunks(file: PartFile, start: number, end: number): AsyncGenerator<string> {
  const { fs, within, real, relative, version, limits } = file;
  // Not fatal: the bytes were checked, and a version that moved throws before its bytes go out.
  // A BOM at the start of the file is dropped, as the in-memory decode drops it.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: start > 0 });
  yield '"';
  const range = { start, length: end - start };
  for await (const bytes of fileChunks(fs, within, real, relative, version, limits, range)) {
    const text = decoder.decode(bytes, { stream: true });
    if (text !== '') yield JSON.stringify(text).slice(1, -1);
  }
  const rest = decoder.decode();
  if (rest !== '') yield JSON.stringify(rest).slice(1, -1);
  yield '"';
}

/** Reads the part's scans through one buffer of {@link WINDOW_BYTES}. */
class Scanner {
  private readonly buffer = Buffer.allocUnsafe(WINDOW_BYTES);

  constructor(private readonly handle: ProviderFileHandle) {}

  /** Bytes [at, at + length), length at most a window; CHANGED on a short read. */
  async bytes(at: number, length: number): Promise<Buffer | typeof CHANGED> {
    const bytes = await readRange(this.handle, at, length, undefined, this.buffer);
    return bytes.length === length ? bytes : CHANGED;
  }

  /**
   * textPartEnd (utf8-cut.ts) over the file: after the last newline in the second half of
   * [start, end), else at the last character boundary at or before `end` (end < size), never
   * before the end of the first character (capped at `cap`, where an in-memory read stops).
   */
  async partEnd(start: number, end: number, cap: number): Promise<number | typeof CHANGED> {
    const half = start + Math.floor((end - start) / 2);
    for (let hi = end; hi > half;) {
      const lo = Math.max(half, hi - WINDOW_BYTES);
      const bytes = await this.bytes(lo, hi - lo);
      if (bytes === CHANGED) return CHANGED;
      const newline = bytes.lastIndexOf(NEWLINE);
      if (newline >= 0) return lo + newline + 1;
      hi = lo;
    }
    const lo = Math.max(start, end - MAX_CONTINUATIONS);
    const around = await this.bytes(lo, end + 1 - lo);
    if (around === CHANGED) return CHANGED;
    const cut = lo + boundaryAtOrBefore(around, end - lo);
    if (cut > start) return cut;
    const first = await this.bytes(start, 1);
    return first === CHANGED ? CHANGED : Math.min(start + sequenceLength(first[0] as number), cap);
  }

  /** Exact JSON string bytes of the text [start, end), quotes included; undefined: not UTF-8. */
  async wire(start: number, end: number): Promise<number | undefined | typeof CHANGED> {
    let wire = 2;
    for (let at = start; at < end;) {
      const hi = Math.min(end, at + WINDOW_BYTES);
      const bytes = await this.bytes(at, hi - at);
      if (bytes === CHANGED) return CHANGED;
      // Whole characters only, but at the end: the rest is read again with the next window.
      const stop = hi === end ? bytes.length : boundaryAtOrBefore(bytes, bytes.length - 1);
      const whole = bytes.subarray(0, stop);
      if (!isUtf8(whole)) return undefined;
      // The decode drops a BOM at the start of the file (inside it, U+FEFF is a character).
      if (at === 0 && stop >= 3 && whole[0] === 0xef && whole[1] === 0xbb && whole[2] === 0xbf)
        wire -= 3;
      for (let i = 0; i < stop; i++) wire += COST[whole[i] as number] as number;
      at += stop;
    }
    return wire;
  }
}

/**
 * The text part of [offset, offset + most) as textRange and textCut (read-part.ts) cut it,
 * streamed; bytes that are not UTF-8 go as a blob of that range, cut to fit `limit` as there.
 */
export async function streamedTextRange(
  handle: ProviderFileHandle,
  file: PartFile,
  offset: number,
  most: number,
  limit: number,
): Promise<PartCut> {
  const { size } = file.version;
  const scan = new Scanner(handle);
  const from = Math.max(0, offset - MAX_CONTINUATIONS);
  const cap = Math.min(size, offset + most + MAX_CONTINUATIONS);
  const head = await scan.bytes(from, Math.min(cap, offset + 1) - from);
  if (head === CHANGED) return CHANGED;
  const start = from + boundaryAtOrBefore(head, offset - from);
  let end = offset + most;
  if (end < size) {
    const cut = await scan.partEnd(start, end, cap);
    if (cut === CHANGED) return CHANGED;
    end = cut;
  }
  for (;;) {
    const wire = await scan.wire(start, end);
    if (wire === CHANGED) return CHANGED;
    if (wire === undefined) return invalidRange(scan, file, start, end, limit);
    if (wire <= limit) {
      // The text of [start, end) as a streamed string (see asBlobString), `wire` bytes as JSON.
      const chunks = () => textChunks(file, start, end);
      const text = asBlobString(streamedBody({ wireBytes: wire, chunks }));
      return { offset: start, length: end - start, body: { text } };
    }
    const target = start + Math.floor(((end - start) * limit) / wire);
    const shorter = await scan.partEnd(start, Math.max(start + 1, Math.min(end - 1, target)), cap);
    if (shorter === CHANGED) return CHANGED;
    if (shorter >= end) return { tooLarge: wire };
    end = shorter;
  }
}

/** invalidText (read-part.ts) over the file: the range as a streamed blob, cut to fit `limit`. */
async function invalidRange(
  scan: Scanner,
  file: PartFile,
  start: number,
  end: number,
  limit: number,
): Promise<PartCut> {
  const room = Math.floor((limit - 2) / 4) * 3;
  if (room < 1) return { tooLarge: 6 };
  let stop = end;
  if (stop - start > room) {
    const at = start + room;
    const lo = Math.max(start, at - MAX_CONTINUATIONS);
    const around = await scan.bytes(lo, at + 1 - lo);
    if (around === CHANGED) return CHANGED;
    stop = lo + boundaryAtOrBefore(around, at - lo);
    if (stop <= start) stop = at;
  }
  return {
    offset: start,
    length: stop - start,
    body: { blob: streamedBlobPart(file, start, stop - start) },
  };
}
