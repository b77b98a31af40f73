/** Reads of a byte range of an open file, in steps of at most {@link READ_CHUNK_BYTES}. */
import type { ProviderFileHandle } from './fs-types.js';

/** Most bytes one `read` call asks for: a large file is read in steps, with a check in between. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Reads `length` bytes at `position` (fewer at the end of the file) into one buffer, at most
 * {@link READ_CHUNK_BYTES} per call. `checkpoint` runs between calls and may throw to stop a
 * long read (a search out of time): the caller closes the handle. `into`, when long enough, is
 * read into instead of a new buffer.
 */
export async function readRange(
  handle: ProviderFileHandle,
  position: number,
  length: number,
  checkpoint?: () => void,
  into?: Buffer,
): Promise<Buffer> {
  const buffer =
    into && into.length >= length ? into.subarray(0, length) : Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    if (filled > 0) checkpoint?.();
    const step = Math.min(length - filled, READ_CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, filled, step, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}
