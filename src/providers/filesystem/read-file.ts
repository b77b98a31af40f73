/** Reads one regular file as MCP text or blob contents, guarding the size before the bytes. */
import type { Stats } from 'node:fs';
import { base64Length } from '../../protocol/base64.js';
import { encodeBase64 } from '../../content/blob.js';
import { jsonUtf8WireSize } from '../../content/wire-size.js';
import {
  DEFAULT_BINARY_MIME,
  DEFAULT_TEXT_MIME,
  SNIFF_SAMPLE,
  isTextMimeType,
  mimeFromName,
  sniffMime,
} from '../../content/mime.js';
import type { ProviderFileHandle, ProviderFs } from './fs-types.js';
import { readRange } from './read-range.js';
import { withOpened, type Containment } from './resolve.js';

/** Encoded contents of one file version, as cached and served. */
export interface FileContents {
  readonly mimeType: string;
  readonly text?: string;
  /** Canonical base64. */
  readonly blob?: string;
  /** Raw size in bytes. */
  readonly size: number;
  readonly mtimeMs: number;
  /** JSON size of the `text` or `blob` string on the wire, quotes included. */
  readonly wireBytes: number;
}

export type ReadOutcome =
  /** `version`: the descriptor's stats of what was read, when it was read from the disk. */
  | { kind: 'ok'; contents: FileContents; version?: Stats }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string }
  | { kind: 'too-large'; size: number; wireBytes: number; mtimeMs: number }
  /** The file kept changing while it was read, `attempts` times in a row. */
  | { kind: 'changed'; attempts: number };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8KeepingBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text of `bytes` when they are valid UTF-8, else undefined (decoded fatally). A leading
 * byte order mark is dropped, unless `keepBom` (bytes from inside a file: a U+FEFF there is a
 * character of the text).
 */
export function decodeUtf8(bytes: Uint8Array, keepBom = false): string | undefined {
  try {
    return (keepBom ? utf8KeepingBom : utf8).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A file's type before it is read: by its name, else what the listing sniffed at this size. */
export function typeBeforeRead(
  name: string,
  size: number,
  known?: ReadControl['known'],
): string | undefined {
  return mimeFromName(name) ?? (known?.size === size ? known.mimeType : undefined);
}

/**
 * The fewest wire bytes a file of `size` bytes can take as contents, by its type before it is
 * read: a blob for a binary type (4 per 3 bytes), else at least one byte per byte, plus quotes.
 */
export function leastWireBytes(name: string, size: number, known?: ReadControl['known']): number {
  const type = typeBeforeRead(name, size, known);
  return (type !== undefined && !isTextMimeType(type) ? base64Length(size) : size) + 2;
}

/**
 * Sniffs the first bytes of the file at `real` (for the index: unknown extensions only), opened and
 * checked as a read is (`openInRoot`); undefined when it may not be served.
 */
export async function sniffFile(
  fs: ProviderFs,
  real: string,
  within: Containment,
): Promise<string | undefined> {
  const sniffed = await withOpened(fs, real, within, async (handle, stats) => {
    const head = await readRange(handle, 0, Math.min(stats.size, SNIFF_SAMPLE));
    return (await sniffMime(head)) ?? DEFAULT_BINARY_MIME;
  });
  return typeof sniffed === 'string' ? sniffed : undefined;
}

/** How a read may be bounded besides its wire limit (a search's budget). */
export interface ReadControl {
  /** Runs between the steps of a large read; throws to stop it (the handle is closed). */
  checkpoint?: () => void;
  /** Most raw bytes to read: a larger file is "too-large" from its size, unread. */
  maxSize?: number;
  /**
   * The type the listing sniffed for this file when it had this size: a file refused from its
   * size alone then gets its real wire size (base64 for a binary), not a text's lower bound.
   */
  known?: { mimeType: string; size: number };
}

/** How many times one read tries a file that changes under it before answering "changed". */
export const READ_ATTEMPTS = 3;

/**
 * A file still changing once the attempts are spent (rewritten every few ms, never quiet for a
 * settle window) is caught between two of its writes: up to this many tries more.
 */
export const HOT_TRIES = 24;

/**
 * How long a version of such a file must stand, by this process's clock, from the fstat before
 * its bytes to the one after: a truncating writer's empty or partly written file lasts
 * microseconds unless the writer is descheduled, a whole version until the next write.
 */
export const HOT_DWELL_MS = 2;

/** One attempt saw the file change: its bytes may mix versions and are dropped. */
export const CHANGED = Symbol('changed');

/**
 * How long a file must have been quiet before it is served, unless `ProviderFs.settleMs` says.
 * A writer descheduled between its truncate and its write for longer still is not told apart
 * from a file that is really that short: 50 ms was seen to be passed on a loaded 2-core machine.
 */
export const DEFAULT_SETTLE_MS = 100;

/** An empty file modified just now must be quiet this many times longer before it is served. */
export const EMPTY_SETTLE_FACTOR = 10;

/** How long a file must be quiet before it is served, and the clock it is told by. */
export interface Settle {
  readonly ms: number;
  readonly now: () => number;
}

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** How long `fs` says a file must be quiet before it is served, and its clock. */
export function settleOf(fs: ProviderFs): Settle {
  const ms = fs.settleMs ?? DEFAULT_SETTLE_MS;
  return { ms: Number.isFinite(ms) && ms > 0 ? ms : 0, now: fs.now ?? Date.now };
}

/**
 * Reads `real` (resolved inside the root) as text when its type is textual and its bytes are
 * valid UTF-8, else as a base64 blob. The open is checked against `within` before a byte is read
 * (`openInRoot`): a file swapped or moved out of the root meanwhile is refused. A file whose
 * string would take over `limit` wire bytes is refused from its size alone, unread. The raw bytes
 * exist once, dropped as soon as they are encoded.
 *
 * A file rewritten in place while it is read could give bytes no version of it held, so the
 * descriptor is stat'ed before and after: a short read, or a moved size, mtime or ctime, drops the
 * bytes and reads again, up to {@link READ_ATTEMPTS} times; then "changed", never mixed bytes.
 *
 * Both stats agree while a truncating writer has not (fully) written the file again: an empty
 * file or a prefix, states it really passed through. So a file modified within `settleMs`
 * ({@link DEFAULT_SETTLE_MS}) is first left to settle (one timer, one more fstat; a change
 * meanwhile counts as a changed attempt). An older file costs no timer and no syscall.
 *
 * A file rewritten every few ms never settles: once the attempts are spent, a version that stands
 * between two fstats at least {@link HOT_DWELL_MS} apart, its bytes read in between, is served
 * (readBetweenWrites); "changed" only when none did in {@link HOT_TRIES} tries. An empty file
 * modified just now must be quiet {@link EMPTY_SETTLE_FACTOR} times longer, and one seen after
 * the file changed is never served.
 */
export async function readFileContents(
  fs: ProviderFs,
  real: string,
  name: string,
  limit: number,
  within: Containment,
  control: ReadControl = {},
): Promise<ReadOutcome> {
  return withOpened(fs, real, within, async (handle, opened) => {
    let stats = opened;
    // Whether every change seen so far made the file longer: an appended log, never quiet
    // enough to settle, whose every state is a prefix of the next.
    let growing = settleOf(fs).ms > 0;
    for (let attempt = 1; ; attempt++) {
      // Stats it changed to while it settled: this attempt saw it change, without a read.
      const moved = await unsettled(fs, handle, stats, control);
      // Empty after it was seen changing: a truncating writer stalled before its write.
      if (moved === undefined && (attempt === 1 || stats.size > 0)) {
        const outcome = await readOnce(handle, stats, name, limit, control);
        if (outcome !== CHANGED) return outcome;
      }
      const next = moved ?? (await handle.stat());
      if (next.size <= stats.size) growing = false;
      if (attempt >= READ_ATTEMPTS) {
        // A file that only grew is read as it stands, if it stands still for the read.
        if (growing) {
          const outcome = await readOnce(handle, next, name, limit, control);
          if (outcome !== CHANGED) return outcome;
        }
        const hot = await readBetweenWrites(fs, handle, name, limit, control);
        return hot === CHANGED ? { kind: 'changed', attempts: attempt + HOT_TRIES } : hot;
      }
      stats = next;
    }
  });
}

/**
 * The read of a file that never settles: a version whose bytes were read between two fstats
 * that agree, {@link HOT_DWELL_MS} apart at least, is a whole one; an empty file is not taken
 * (what a truncating writer leaves until its write). {@link CHANGED} when no try caught one.
 */
async function readBetweenWrites(
  fs: ProviderFs,
  handle: ProviderFileHandle,
  name: string,
  limit: number,
  control: ReadControl,
): Promise<ReadOutcome | typeof CHANGED> {
  const settle = settleOf(fs);
  const sleep = fs.sleep ?? defaultSleep;
  const dwell = Math.min(HOT_DWELL_MS, settle.ms);
  for (let tries = 0; tries < HOT_TRIES; tries++) {
    control.checkpoint?.();
    const from = settle.now();
    const before = await handle.stat();
    if (before.size === 0) {
      await sleep(Math.max(dwell, 1));
      continue;
    }
    const outcome = await readOnce(handle, before, name, limit, control);
    if (outcome === CHANGED) continue;
    if (outcome.kind !== 'ok') return outcome;
    const left = from + dwell - settle.now();
    if (left > 0) await sleep(left);
    if (sameVersion(before, await handle.stat())) return outcome;
  }
  return CHANGED;
}

/** Whether two stats of one open descriptor show the same version (size, mtime, ctime). */
export function sameVersion(a: Stats, b: Stats): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * Undefined when the file that stat'ed as `before` may be read now: modified over `settle.ms`
 * ago (no timer, no syscall), or quiet since, for the rest of that time. Else what it stat'ed as
 * after the wait. A time in the future (clock skew) waits `settle.ms`, never longer. An empty
 * file's window is {@link EMPTY_SETTLE_FACTOR} times longer.
 */
export async function unsettled(
  fs: ProviderFs,
  handle: ProviderFileHandle,
  before: Stats,
  control: ReadControl,
): Promise<Stats | undefined> {
  const settle = settleOf(fs);
  // Empty is what a truncating writer leaves until its write: a longer stall is told apart too.
  const window = before.size === 0 ? settle.ms * EMPTY_SETTLE_FACTOR : settle.ms;
  if (window === 0) return undefined;
  const age = settle.now() - Math.max(before.mtimeMs, before.ctimeMs);
  if (age >= window) return undefined;
  await (fs.sleep ?? defaultSleep)(Math.min(window - age, window));
  control.checkpoint?.();
  const after = await handle.stat();
  return sameVersion(before, after) ? undefined : after;
}

/** How a file is served: by its name's type, else by its first bytes. */
export interface FileKind {
  readonly mimeType: string;
  /** Served as text when its bytes are UTF-8. */
  readonly textual: boolean;
  /** The type of its bytes served as a blob, when they are not UTF-8 after all. */
  readonly blobType: string;
  /** The first bytes, when they were read to sniff the type. */
  readonly head?: Buffer;
}

/** Classifies the open file of `size` bytes named `name`: by name, else by sniffing its start. */
export async function classifyFile(
  handle: ProviderFileHandle,
  name: string,
  size: number,
): Promise<FileKind> {
  const byName = mimeFromName(name);
  const head =
    byName === undefined ? await readRange(handle, 0, Math.min(size, SNIFF_SAMPLE)) : undefined;
  const sniffed = head !== undefined ? await sniffMime(head) : undefined;
  const mimeType = byName ?? sniffed ?? DEFAULT_BINARY_MIME;
  const textual =
    isTextMimeType(mimeType) || (byName === undefined && sniffed === DEFAULT_TEXT_MIME);
  // Declared text that is not UTF-8 keeps its type; sniffed "text" that is not, is just bytes.
  const blobType = byName ?? (sniffed === DEFAULT_TEXT_MIME ? DEFAULT_BINARY_MIME : mimeType);
  return head === undefined
    ? { mimeType, textual, blobType }
    : { mimeType, textual, blobType, head };
}

/** One read of the open file whose descriptor stat'ed as `before`. */
async function readOnce(
  handle: ProviderFileHandle,
  before: Stats,
  name: string,
  limit: number,
  control: ReadControl,
): Promise<ReadOutcome | typeof CHANGED> {
  const { size, mtimeMs } = before;
  if (size > (control.maxSize ?? Number.POSITIVE_INFINITY))
    return { kind: 'too-large', size, wireBytes: leastWireBytes(name, size), mtimeMs };
  const kind = await classifyFile(handle, name, size);
  const { mimeType, textual, head } = kind;
  // Text costs at least one byte per byte on the wire; a blob exactly 4 per 3.
  const least = (textual ? size : base64Length(size)) + 2;
  if (least > limit) return { kind: 'too-large', size, wireBytes: least, mtimeMs };
  const bytes =
    head !== undefined && head.length === size
      ? head
      : await readRange(handle, 0, size, control.checkpoint);
  if (bytes.length !== size || !sameVersion(before, await handle.stat())) return CHANGED;
  const text = textual ? decodeUtf8(bytes) : undefined;
  if (text !== undefined) {
    // From the bytes: ~4x faster than stringifying the text (its escapes are the slow path).
    // The decoder drops a leading byte order mark, so the size does too.
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    const wireBytes = jsonUtf8WireSize(bom ? bytes.subarray(3) : bytes);
    if (wireBytes > limit) return { kind: 'too-large', size, wireBytes, mtimeMs };
    return { kind: 'ok', contents: { mimeType, text, size, mtimeMs, wireBytes }, version: before };
  }
  const wireBytes = base64Length(size) + 2;
  if (wireBytes > limit) return { kind: 'too-large', size, wireBytes, mtimeMs };
  return {
    kind: 'ok',
    contents: { mimeType: kind.blobType, blob: encodeBase64(bytes), size, mtimeMs, wireBytes },
    version: before,
  };
}
