/**
 * The whole guarded read of one path as one job, run by a read-pool worker: the same guards as
 * a read on the main thread (resolveInRoot, then readFileContents, which opens through
 * openInRoot), over blocking calls that cost the worker's thread instead of eight hops through
 * libuv's pool.
 */
import * as fs from 'node:fs';
import type { Stats } from 'node:fs';
import type { ProviderFileHandle, ProviderFs } from './fs-types.js';
import type { Visibility } from './paths.js';
import { leastWireBytes, readFileContents, type ReadOutcome } from './read-file.js';
import { resolveInRoot, type Resolved } from './resolve.js';

export interface ReadJob {
  readonly root: string;
  readonly relative: string;
  readonly visibility: Visibility;
  readonly refuseHardLinks: boolean;
  /** Most wire bytes of the text or blob (the caller's limit). */
  readonly limitBytes: number;
  /**
   * Most wire bytes the caller's cache keeps in one entry: a file that cannot cost less is
   * only resolved (the caller streams it or refuses it from its size).
   */
  readonly keepsWireBytes: number;
  /** The type the listing sniffed at this size (see ReadControl.known). */
  readonly known?: { mimeType: string; size: number } | undefined;
  /** See ProviderFs.settleMs. */
  readonly settleMs?: number | undefined;
}

/** What a job found: the resolution, and the contents when it read them. */
export interface ReadJobResult {
  readonly resolved: Resolved;
  readonly outcome?: ReadOutcome;
}

function handleOf(fd: number): ProviderFileHandle {
  return {
    fd,
    stat: async () => fs.fstatSync(fd),
    read: async (buffer, offset, length, position) => ({
      bytesRead: fs.readSync(fd, buffer, offset, length, position),
    }),
    close: async () => fs.closeSync(fd),
  };
}

/** The provider's calls, blocking: for a worker thread, whose only job is the one read. */
export function blockingFs(settleMs?: number): ProviderFs {
  return {
    realpath: async (p) => fs.realpathSync.native(p),
    stat: async (p) => fs.statSync(p),
    readdir: async (p, options) => fs.readdirSync(p, options),
    open: async (p, flags) => handleOf(fs.openSync(p, flags)),
    access: async (p) => fs.accessSync(p, fs.constants.R_OK),
    fdPath: async (fd) => {
      if (process.platform !== 'linux') return undefined;
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return undefined;
      }
    },
    ...(settleMs !== undefined ? { settleMs } : {}),
  };
}

/** Resolves `job.relative` and, when its contents may be cached, reads them. */
export async function runReadJob(fs: ProviderFs, job: ReadJob): Promise<ReadJobResult> {
  const { root, relative, visibility, refuseHardLinks, limitBytes } = job;
  const within = { root, visibility, refuseHardLinks };
  const resolved = await resolveInRoot(fs, root, relative, visibility, within);
  if (resolved.kind !== 'file') return { resolved };
  const { size } = resolved.stats;
  const known = job.known?.size === size ? job.known.mimeType : undefined;
  const least = leastWireBytes(relative, size, known);
  if (least > limitBytes || least > job.keepsWireBytes) return { resolved };
  const control = job.known !== undefined ? { known: job.known } : {};
  const outcome = await readFileContents(fs, resolved.real, relative, limitBytes, within, control);
  return { resolved, outcome };
}

/** Stats as a worker's message brings them (plain fields) made Stats again. */
export function revived<T extends object>(stats: T): Stats {
  return Object.setPrototypeOf(stats, fs.Stats.prototype) as Stats;
}
