/**
 * The provider's default file system: node's, with the calls that take microseconds on a local
 * disk made synchronously rather than through libuv's thread pool, whose round trips cost more
 * than the calls themselves (four threads shared by every read, two context switches a hop: a
 * first read of a small file took seven of them). Synchronous: stat, realpath, access, open,
 * fstat, close, the kernel's name of a descriptor, and reads of up to {@link QUICK_READ_BYTES}.
 * Larger reads and directory listings stay asynchronous. An open never waits on a FIFO swapped
 * in: the provider's flags carry O_NONBLOCK (resolve.ts).
 */
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  openSync,
  read,
  readSync,
  readlinkSync,
  realpathSync,
  statSync,
} from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { ProviderFileHandle, ProviderFs, SyncFs } from './fs-types.js';

/** Longest read made synchronously: a copy from the page cache of a few tens of microseconds. */
export const QUICK_READ_BYTES = 256 * 1024;

class QuickHandle implements ProviderFileHandle {
  private closed = false;

  constructor(readonly fd: number) {}

  async stat() {
    this.check('stat');
    return fstatSync(this.fd);
  }

  read(buffer: Buffer, offset: number, length: number, position: number) {
    // After close the number may name another file by now: refused, as a FileHandle does.
    if (this.closed) return Promise.reject(closedError('read'));
    if (length <= QUICK_READ_BYTES)
      return Promise.resolve({ bytesRead: readSync(this.fd, buffer, offset, length, position) });
    return new Promise<{ bytesRead: number }>((resolve, reject) =>
      read(this.fd, buffer, offset, length, position, (error, bytesRead) =>
        error ? reject(error) : resolve({ bytesRead }),
      ),
    );
  }

  private check(what: string): void {
    if (this.closed) throw closedError(what);
  }

  async close() {
    // Twice is a no-op, as for a FileHandle: the descriptor number may belong to another file by then.
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

function closedError(what: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EBADF: file closed, ${what}`), { code: 'EBADF', syscall: what });
}

function fdPathSync(fd: number): string | undefined {
  if (process.platform !== 'linux' || !Number.isInteger(fd) || fd < 0) return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** The same calls, answered at once: the provider's reads of small files run whole in one turn. */
const quickSync: SyncFs = {
  maxReadBytes: QUICK_READ_BYTES,
  realpath: (p) => realpathSync.native(p),
  stat: (p) => statSync(p),
  open: (p, flags) => openSync(p, flags),
  fstat: (fd) => fstatSync(fd),
  read: (fd, buffer, offset, length, position) => readSync(fd, buffer, offset, length, position),
  close: (fd) => closeSync(fd),
  fdPath: fdPathSync,
};

export const quickFs: ProviderFs = {
  realpath: async (p) => realpathSync.native(p),
  stat: async (p) => statSync(p),
  readdir: (p, options) => fsp.readdir(p, options),
  open: async (p, flags) => new QuickHandle(openSync(p, flags)),
  access: async (p) => accessSync(p, constants.R_OK),
  fdPath: async (fd) => fdPathSync(fd),
  sync: quickSync,
};
