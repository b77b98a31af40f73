/**
 * A whole read of a large binary file for a connection that streams bodies (HTTP): when its
 * encoded form would not be cached, the answer carries a StreamedBody that reads, encodes and
 * sends the file a chunk at a time as the client takes it, instead of holding it whole.
 */
import type { Stats } from 'node:fs';
import { base64Body, type StreamedBody } from '../../content/streamed-body.js';
import { isTextMimeType } from '../../content/mime.js';
import { McpKitError } from '../../errors/mcpkit-error.js';
import { base64Length } from '../../protocol/base64.js';
import {
  readContents,
  sameFile,
  type ContentStore,
  type ContentsOutcome,
  type ResolvedFile,
} from './file-reader.js';
import { withoutPath, type ProviderFileHandle, type ProviderFs } from './fs-types.js';
import { readRange } from './read-range.js';
import {
  classifyFile,
  sameVersion,
  typeBeforeRead,
  unsettled,
  type ReadControl,
} from './read-file.js';
import { openInRoot, resolveInRoot, withOpened, type Containment } from './resolve.js';
import { StreamSteps, type StreamLimits } from './stream-steps.js';

/**
 * Raw bytes per streamed chunk: a multiple of 3, so that no base64 group spans two chunks
 * (64 KiB of base64 each: a string that small lives in V8's young generation, collected at
 * once, where larger ones wait for a full collection). A file no larger than one chunk is read
 * whole: it costs as much.
 */
export const STREAM_CHUNK_BYTES = 3 * 16 * 1024;

/** A file version to be sent as a stream: what its contents say, and the body. */
export interface StreamedFile {
  readonly mimeType: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** Its `wireBytes`: the exact JSON size of the blob string, quotes included. */
  readonly body: StreamedBody;
}

/** What a whole read answers on a connection that streams bodies. */
export type WholeReadOutcome = ContentsOutcome | { kind: 'streamed'; contents: StreamedFile };

/**
 * `readContents`, except that a blob whose encoded form the cache would not keep (cacheBytes
 * 0, or larger than one entry may be) and that fits `limitBytes` is answered "streamed": a
 * body read from the file when the transport sends it. A cached hit, a text, a file that is
 * still being written, and one that fits in a chunk take the usual path. `resolvedFile`, as for
 * `readContents`: what the caller resolved already. `limits` bound each step of the stream.
 */
export async function readOrStream(
  fs: ProviderFs,
  within: Containment,
  store: ContentStore,
  relative: string,
  limitBytes: number,
  control: ReadControl = {},
  resolvedFile?: ResolvedFile,
  limits?: StreamLimits,
): Promise<WholeReadOutcome> {
  const resolved =
    resolvedFile ?? (await resolveInRoot(fs, within.root, relative, within.visibility, within));
  if (resolved.kind !== 'file') return resolved;
  const { cache } = store;
  const streamed = eligible(relative, resolved.stats.size, cache, limitBytes, control)
    ? await prepare(fs, within, cache, relative, resolved, limitBytes, limits)
    : undefined;
  return (
    streamed ?? (await readContents(fs, within, store, relative, limitBytes, control, resolved))
  );
}

/**
 * Whether a file of `size` may be streamed, from what is known before it is opened: not text
 * by name (nor by the listing's type, at this size), larger than a chunk, its blob over what the
 * cache keeps and within `limitBytes`. Cost decides exactly as when contents are cached: an
 * entry costs at least its wire bytes, so a cache that refuses those holds no entry for it.
 */
function eligible(
  relative: string,
  size: number,
  cache: ContentStore['cache'],
  limitBytes: number,
  control: ReadControl,
): boolean {
  const type = typeBeforeRead(relative, size, control.known);
  if (type !== undefined && isTextMimeType(type)) return false;
  const wireBytes = base64Length(size) + 2;
  return size > STREAM_CHUNK_BYTES && wireBytes <= limitBytes && !cache.accepts(wireBytes);
}

/**
 * Opens the file through the guards, lets it settle as a read does, and classifies it as a
 * read would (by name, else its first bytes): a blob of the version now on disk is answered
 * "streamed", its size and times kept for the stream to check against. Undefined for the usual
 * path (a text after all, or a file that moved while it settled), which then reads it itself.
 */
async function prepare(
  fs: ProviderFs,
  within: Containment,
  cache: ContentStore['cache'],
  relative: string,
  resolved: ResolvedFile,
  limitBytes: number,
  limits: StreamLimits | undefined,
): Promise<WholeReadOutcome | undefined> {
  const outcome = await withOpened(fs, resolved.real, within, async (handle, stats) => {
    // Streamed from what was opened; a remembered resolution of another version is not reused.
    if (!sameFile(stats, resolved.stats)) resolved.stale?.();
    if ((await unsettled(fs, handle, stats, {})) !== undefined) return undefined;
    const kind = await classifyFile(handle, relative, stats.size);
    const { size, mtimeMs } = stats;
    const wireBytes = base64Length(size) + 2;
    if (kind.textual || size <= STREAM_CHUNK_BYTES || wireBytes > limitBytes) return undefined;
    if (cache.accepts(wireBytes)) return undefined;
    const body = base64Body({
      size,
      chunks: () => fileChunks(fs, within, resolved.real, relative, stats, limits),
    });
    const contents = { mimeType: kind.blobType, size, mtimeMs, body };
    return { kind: 'streamed', contents } as const;
  });
  if (outcome?.kind === 'missing' || outcome?.kind === 'refused') resolved.stale?.();
  return outcome;
}

function changed(relative: string, why: string): McpKitError {
  return new McpKitError('STREAM_FAILED', `${relative} changed while it was sent (${why})`);
}

/** Bytes [start, start + length) of a file: a part's range. */
export interface ByteRange {
  readonly start: number;
  readonly length: number;
}

/**
 * The raw bytes of the version `version` names (all, or `range`), a chunk at a time into one
 * reused buffer (each chunk is encoded before the next is read). Opened anew through the same
 * guards; the descriptor is stat'ed before the first byte and after every chunk, so a version that
 * moved, or a short read, throws before its bytes go out: never bytes of two versions. Each step
 * (open, settle, a chunk's read and stat) waits at most `limits.readTimeoutMs`; a file with a
 * stalled read is not opened. The handle is closed however the iteration ends; after a step given
 * up on, once that step returns.
 */
export async function* fileChunks(
  fs: ProviderFs,
  within: Containment,
  real: string,
  relative: string,
  version: Stats,
  limits: StreamLimits | undefined,
  range: ByteRange = { start: 0, length: version.size },
): AsyncGenerator<Uint8Array> {
  const steps = new StreamSteps(relative, limits);
  steps.admit();
  const opened = await steps.run(openInRoot(fs, real, within), (late) =>
    late?.kind === 'open' ? late.handle.close() : undefined,
  );
  if (opened.kind !== 'open') throw changed(relative, 'it is no longer served');
  const { handle } = opened;
  const close = (): Promise<void> => handle.close();
  try {
    if (!sameFile(version, opened.stats)) throw changed(relative, 'another version is on disk');
    if ((await steps.run(unsettled(fs, handle, opened.stats, {}), close)) !== undefined)
      throw changed(relative, 'it is being written');
    const end = range.start + range.length;
    const buffer = Buffer.allocUnsafe(Math.min(STREAM_CHUNK_BYTES, range.length));
    for (let at = range.start; at < end; at += STREAM_CHUNK_BYTES) {
      const want = Math.min(STREAM_CHUNK_BYTES, end - at);
      const [bytes, now] = await steps.run(chunkAt(handle, at, want, buffer), close);
      if (bytes.length !== want) throw changed(relative, `a short read at byte ${at}`);
      if (!sameVersion(version, now))
        throw changed(relative, `its size or times moved at byte ${at}`);
      yield bytes;
    }
  } catch (error) {
    if (error instanceof McpKitError) throw error;
    // What reaches a log never names the server's folders.
    const scrubbed = withoutPath(error, `cannot read ${relative}`);
    throw new McpKitError('STREAM_FAILED', scrubbed.message, { cause: scrubbed });
  } finally {
    // A step given up on still uses the handle: it is closed when that step returns.
    if (!steps.abandoned) await handle.close();
  }
}

/** `want` bytes at `at` into `buffer`, and the descriptor's stats after them. */
async function chunkAt(
  handle: ProviderFileHandle,
  at: number,
  want: number,
  buffer: Buffer,
): Promise<[Buffer, Stats]> {
  const bytes = await readRange(handle, at, want, undefined, buffer);
  return [bytes, await handle.stat()];
}
