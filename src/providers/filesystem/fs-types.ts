import type { Dirent, Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/**
 * The few `node:fs/promises` calls the provider makes; inject another implementation to count
 * or fake them in tests. Only `open` reads file bytes.
 */
export interface ProviderFs {
  realpath(path: string): Promise<string>;
  stat(path: string): Promise<Stats>;
  readdir(path: string, options: { withFileTypes: true }): Promise<Dirent[]>;
  open(path: string, flags: number): Promise<FileHandle>;
}

export const nodeFs: ProviderFs = {
  realpath: (p) => fsp.realpath(p),
  stat: (p) => fsp.stat(p),
  readdir: (p, options) => fsp.readdir(p, options),
  open: (p, flags) => fsp.open(p, flags),
};

/** Reads `length` bytes at `position` (fewer at the end of the file) into one buffer. */
export async function readRange(
  handle: FileHandle,
  position: number,
  length: number,
): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

/** Whether an error is "nothing there" (missing, or a file where a directory was expected). */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
