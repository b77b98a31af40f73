/**
 * Reads one part of a file: a range of its bytes, as text cut at a character (better, a line)
 * boundary, or as the exact bytes of a blob. Only the range is read and nothing is cached: a walk
 * of a 1 GiB file holds one part at a time.
 */
import { encodeBase64 } from '../../content/blob.js';
import { jsonStringWireSize } from '../../content/wire-size.js';
import type { ProviderFileHandle, ProviderFs } from './fs-types.js';
import { readRange } from './read-range.js';
import { fileVersion, type PartRequest } from './parts.js';
import {
  CHANGED,
  READ_ATTEMPTS,
  classifyFile,
  decodeUtf8,
  sameVersion,
  unsettled,
} from './read-file.js';
import { resolveInRoot, withOpened, type Containment } from './resolve.js';
import { STREAM_CHUNK_BYTES } from './streamed-file.js';
import {
  streamedBlobPart,
  streamedTextRange,
  type PartCut,
  type PartFile,
} from './streamed-part.js';
import type { StreamLimits } from './stream-steps.js';
import { MAX_CONTINUATIONS, boundaryAtOrBefore, textPartEnd } from '../../content/utf8-cut.js';

/** One part as read: its bytes encoded, the range they are, and the version they are from. */
export interface FilePart {
  readonly mimeType: string;
  readonly text?: string;
  /** Canonical base64. */
  readonly blob?: string;
  /** The real first byte: a text part that was asked to start inside a character starts at it. */
  readonly offset: number;
  readonly length: number;
  /** The whole file's size. */
  readonly size: number;
  readonly mtimeMs: number;
  readonly version: string;
}

export type PartOutcome =
  | { kind: 'ok'; part: FilePart }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string }
  /** The offset is past the end of the file (or at it, for a file that is not empty). */
  | { kind: 'beyond-end'; size: number; version: string }
  /** A version was asked for and the file is (or, during the read, became) another one. */
  | { kind: 'changed'; version: string }
  /** No version was asked for and the file kept changing while it was read. */
  | { kind: 'unsteady'; attempts: number }
  /** Not even one character or byte fits `limit`. */
  | { kind: 'too-large'; size: number; wireBytes: number; limit: number };

/** The most wire bytes a part's text or blob string may take, given the file's type and version. */
export type PartLimit = (file: { mimeType: string; version: string; size: number }) => number;

type Cut = PartCut;

/**
 * Reads the part `request` names of `relative` through the same guards as a whole read (resolve,
 * then an open checked against `within`). The descriptor is stat'ed before and after the range is
 * read: a version that moved, or a short read, drops the bytes; then a request with a version is
 * answered "changed" (a walk never splices two versions), one without is read again, up to
 * {@link READ_ATTEMPTS} times. A file still being written is left to settle first, as for whole
 * reads.
 */
export async function readFilePart(
  fs: ProviderFs,
  within: Containment,
  relative: string,
  request: PartRequest,
  limitFor: PartLimit,
  options: PartReadOptions = {},
): Promise<PartOutcome> {
  const resolved = await resolveInRoot(fs, within.root, relative, within.visibility, within);
  if (resolved.kind !== 'file') return resolved;
  return withOpened(fs, resolved.real, within, async (handle, opened) => {
    let stats = opened;
    for (let attempt = 1; ; attempt++) {
      // Another version is answered at once: no wait brings the asked one back.
      const version = fileVersion(stats);
      if (request.version !== undefined && version !== request.version)
        return { kind: 'changed', version };
      const moved = await unsettled(fs, handle, stats, {});
      if (moved === undefined) {
        const file = {
          fs,
          within,
          real: resolved.real,
          relative,
          version: stats,
          limits: options.limits,
        };
        const outcome = await partOnce(handle, file, request, limitFor, options);
        if (outcome !== CHANGED) return outcome;
      }
      stats = moved ?? (await handle.stat());
      if (attempt >= READ_ATTEMPTS) {
        return request.version !== undefined
          ? { kind: 'changed', version: fileVersion(stats) }
          : { kind: 'unsteady', attempts: attempt };
      }
    }
  });
}

/** How a part is read besides its request and limit. */
export interface PartReadOptions {
  /**
   * The writer streams bodies (HTTP): a part of more than a chunk is then a StreamedBody read
   * from the file as the socket takes it (streamed-part.ts), never held whole: a client that
   * does not read holds a chunk, not the part.
   */
  readonly streams?: boolean;
  /** What bounds each step of a streamed part's reads (the provider's read time limit). */
  readonly limits?: StreamLimits | undefined;
  /** The folder's spare buffer (else every part gets its own). */
  readonly scratch?: PartScratch;
}

/** One attempt at the part, from the open file whose descriptor stat'ed as `file.version`. */
async function partOnce(
  handle: ProviderFileHandle,
  file: PartFile,
  request: PartRequest,
  limitFor: PartLimit,
  options: PartReadOptions,
): Promise<PartOutcome | typeof CHANGED> {
  const { version: before, relative: name } = file;
  const { size, mtimeMs } = before;
  const version = fileVersion(before);
  if (request.offset > size || (request.offset === size && size > 0))
    return { kind: 'beyond-end', size, version };
  // Classified as a whole read would be: by name, else by the first bytes of the file.
  const kind = await classifyFile(handle, name, size);
  const limit = limitFor({ mimeType: kind.mimeType, version, size });
  const cut =
    size === 0
      ? { offset: 0, length: 0, body: kind.textual ? { text: '' } : { blob: '' } }
      : kind.textual
        ? await textRange(handle, file, request, limit, options)
        : await blobRange(handle, file, request, limit, options);
  if (cut === CHANGED || !sameVersion(before, await handle.stat())) return CHANGED;
  if ('tooLarge' in cut) return { kind: 'too-large', size, wireBytes: cut.tooLarge, limit };
  const { offset, length, body } = cut;
  return {
    kind: 'ok',
    part: { mimeType: kind.mimeType, ...body, offset, length, size, mtimeMs, version },
  };
}

/** The spare buffer kept between part reads: the default part, and a little more. */
const SCRATCH_BYTES = 2 * 1024 * 1024;
/** Smaller reads are not worth the spare buffer. */
const SCRATCH_MIN_BYTES = 64 * 1024;

/**
 * One spare buffer for the part reads of one folder, lent to one read at a time: a walk of many
 * parts then leaves no buffer per part for a full collection to free.
 */
export class PartScratch {
  private buffer: Buffer | undefined;
  private lent = false;

  /**
   * Reads a range into the spare buffer when it is free and the range fits it, else into a new
   * one. `release` gives it back once the bytes are copied out (decoded or encoded).
   */
  async read(
    handle: ProviderFileHandle,
    position: number,
    length: number,
  ): Promise<{ bytes: Buffer; release: () => void }> {
    const borrow = !this.lent && length >= SCRATCH_MIN_BYTES && length <= SCRATCH_BYTES;
    if (borrow) {
      this.lent = true;
      this.buffer ??= Buffer.allocUnsafe(SCRATCH_BYTES);
    }
    try {
      const into = borrow ? this.buffer : undefined;
      const bytes = await readRange(handle, position, length, undefined, into);
      return { bytes, release: () => void (borrow && (this.lent = false)) };
    } catch (error) {
      if (borrow) this.lent = false;
      throw error;
    }
  }
}

/** Most raw bytes whose base64 fits `limit` wire bytes with its quotes. */
function blobRoom(limit: number): number {
  return Math.floor((limit - 2) / 4) * 3;
}

/**
 * The exact bytes [offset, offset + length), clamped to the end of the file and to `limit`;
 * `streams`: as a StreamedBody when larger than a chunk (see {@link PartReadOptions}).
 */
async function blobRange(
  handle: ProviderFileHandle,
  file: PartFile,
  { offset, length }: PartRequest,
  limit: number,
  { streams, scratch = new PartScratch() }: PartReadOptions,
): Promise<Cut> {
  const most = Math.min(length, file.version.size - offset, blobRoom(limit));
  if (most < 1) return { tooLarge: 6 };
  // Read again as the client takes it: the version is checked after every chunk.
  if (streams === true && most > STREAM_CHUNK_BYTES)
    return { offset, length: most, body: { blob: streamedBlobPart(file, offset, most) } };
  const { bytes, release } = await scratch.read(handle, offset, most);
  try {
    if (bytes.length !== most) return CHANGED;
    return { offset, length: most, body: { blob: encodeBase64(bytes) } };
  } finally {
    release();
  }
}

/**
 * A text part: starts at the character `offset` falls in, ends at a line or character boundary
 * (unless it reaches the end of the file), and is shrunk until its JSON string fits `limit`
 * (escapes cost up to 6 bytes per byte). Bytes that are not UTF-8 go as a blob of that range.
 */
async function textRange(
  handle: ProviderFileHandle,
  file: PartFile,
  { offset, length }: PartRequest,
  limit: number,
  { streams = false, scratch = new PartScratch() }: PartReadOptions,
): Promise<Cut> {
  const { size } = file.version;
  // Text costs at least one wire byte per byte, plus its quotes.
  const most = Math.min(length, size - offset, limit - 2);
  if (most < 1) return { tooLarge: 3 };
  if (streams && most > STREAM_CHUNK_BYTES)
    return streamedTextRange(handle, file, offset, most, limit);
  // A few bytes either side: the start of the character at `offset`, the bytes after the end.
  const from = Math.max(0, offset - MAX_CONTINUATIONS);
  const to = Math.min(size, offset + most + MAX_CONTINUATIONS);
  const { bytes, release } = await scratch.read(handle, from, to - from);
  try {
    return bytes.length === to - from ? textCut(bytes, size, from, offset, most, limit) : CHANGED;
  } finally {
    release();
  }
}

/** The text part within `bytes` (read from `from`), as {@link textRange} describes. */
function textCut(
  bytes: Buffer,
  size: number,
  from: number,
  offset: number,
  most: number,
  limit: number,
): Cut {
  const start = boundaryAtOrBefore(bytes, offset - from);
  let end = offset + most - from;
  if (offset + most < size) end = textPartEnd(bytes, start, end);
  for (;;) {
    // Only the file's first bytes can be its byte order mark (dropped, as a whole read does).
    const text = decodeUtf8(bytes.subarray(start, end), from + start > 0);
    if (text === undefined) return invalidText(bytes, from, start, end, limit);
    const wire = jsonStringWireSize(text);
    if (wire <= limit) return { offset: from + start, length: end - start, body: { text } };
    // Escapes made it too large: shrink in proportion, to a boundary, and measure again.
    const target = start + Math.floor(((end - start) * limit) / wire);
    const shorter = textPartEnd(bytes, start, Math.max(start + 1, Math.min(end - 1, target)));
    if (shorter >= end) return { tooLarge: wire };
    end = shorter;
  }
}

/** A text part whose bytes are not UTF-8: the same range as a blob, cut to fit `limit`. */
function invalidText(bytes: Buffer, from: number, start: number, end: number, limit: number): Cut {
  const room = blobRoom(limit);
  if (room < 1) return { tooLarge: 6 };
  let stop = end;
  if (stop - start > room) {
    // Still at a boundary where there is one, so that the next part starts where this one ends.
    stop = boundaryAtOrBefore(bytes, start + room, start);
    if (stop <= start) stop = start + room;
  }
  const blob = encodeBase64(bytes.subarray(start, stop));
  return { offset: from + start, length: stop - start, body: { blob } };
}
