import type { Dirent, Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';

/** What the provider uses of an open file (node's `FileHandle` is one). */
export interface ProviderFileHandle {
  readonly fd: number;
  stat(): Promise<Stats>;
  read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/**
 * The few `node:fs/promises` calls the provider makes; inject another implementation to count
 * or fake them in tests. Only `open` reads file bytes. Every call is asynchronous: a slow or hung
 * file (a network mount) holds the requests that touch it, never the event loop.
 */
export interface ProviderFs {
  realpath(path: string): Promise<string>;
  stat(path: string): Promise<Stats>;
  readdir(path: string, options: { withFileTypes: true }): Promise<Dirent[]>;
  open(path: string, flags: number): Promise<ProviderFileHandle>;
  /**
   * Rejects when this process may not read `path` (`access(2)` with R_OK). The listing asks it
   * of every new or changed file, so that nothing is listed that a read would answer "not
   * found" for. Without it, readability is learned by opening (and closing) the file.
   */
  access?(path: string): Promise<void>;
  /**
   * Where an open file descriptor really is, as the kernel names it (Linux:
   * `/proc/self/fd/<fd>`); undefined when that cannot be told. Without it, an opened file is
   * checked by resolving its path again and comparing device and inode.
   */
  fdPath?(fd: number): Promise<string | undefined>;
  /**
   * How long (ms) a file must have gone unmodified before its bytes are served: a file whose
   * mtime or ctime is more recent is still being written (truncated, not yet rewritten), so a
   * read waits until it has been quiet that long and serves it only if it did not change
   * meanwhile. Default 100 (`DEFAULT_SETTLE_MS`); 0 turns the rule off.
   */
  settleMs?: number;
  /** The wall clock in ms since the epoch, compared with file times (default `Date.now`). */
  now?(): number;
  /** Waits `ms` (default a timer); tests advance a fake clock instead. */
  sleep?(ms: number): Promise<void>;
}

/** The kernel's path of an open descriptor on Linux, or undefined (no /proc, another platform). */
async function procFdPath(fd: number): Promise<string | undefined> {
  if (process.platform !== 'linux' || !Number.isInteger(fd) || fd < 0) return undefined;
  try {
    return await fsp.readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

export const nodeFs: ProviderFs = {
  realpath: (p) => fsp.realpath(p),
  stat: (p) => fsp.stat(p),
  readdir: (p, options) => fsp.readdir(p, options),
  open: (p, flags) => fsp.open(p, flags),
  access: (p) => fsp.access(p, fsp.constants.R_OK),
  fdPath: procFdPath,
};

/** The `code` of a Node.js system error, if any. */
export function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/**
 * Whether an error means "cannot be reached from here", served as not found: missing (or a file
 * where a directory was expected), a permission denied, or a name too long (ENAMETOOLONG).
 */
export function isUnreachable(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'ENAMETOOLONG';
}

/**
 * A file system error with its host path taken out of the message: what reaches a client (a tool
 * error, a log) never names the server's folders. The original stays as `cause`.
 */
export function withoutPath(error: unknown, what: string): Error {
  const code = errorCode(error);
  const scrubbed = new Error(`${what}: ${typeof code === 'string' ? code : 'file system error'}`, {
    cause: error,
  });
  if (typeof code === 'string') (scrubbed as Error & { code?: string }).code = code;
  return scrubbed;
}
