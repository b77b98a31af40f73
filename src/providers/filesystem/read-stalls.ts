/**
 * Reads that outlived their time limit and still wait on the file system. Each holds a read
 * worker or a thread of libuv's pool until the OS call returns: a hung mount hit again and again would take every
 * thread, and then every other file call would wait. So a path with a stalled read is not read
 * again until that read returns, and past `max` stalled reads no read touches the disk.
 */
import { readStalled } from './wire.js';
import type { ProtocolError } from '../../errors/protocol-error.js';

/**
 * Half of libuv's pool (UV_THREADPOOL_SIZE, else 4): the other half stays for healthy files;
 * with read workers, at least the workers beyond the base ones (`heldWorkers`).
 */
export function defaultMaxStalledReads(heldWorkers = 0): number {
  const pool = Number(process.env['UV_THREADPOOL_SIZE']);
  const half = Math.floor((Number.isSafeInteger(pool) && pool > 0 ? pool : 4) / 2);
  return Math.max(1, half, heldWorkers);
}

/** `maxStalledReads` checked: a whole number, at least 1 (see {@link defaultMaxStalledReads}). */
export function maxStalledReadsOf(value: number | undefined, heldWorkers = 0): number {
  const max = value ?? defaultMaxStalledReads(heldWorkers);
  if (Number.isSafeInteger(max) && max >= 1) return max;
  throw new RangeError(`maxStalledReads must be a whole number, at least 1 (got ${String(value)})`);
}

export class ReadStalls {
  /** Readers given up on, by path (its size: the paths with a stall, one stall per path). */
  private readonly byPath = new Map<string, number>();

  constructor(
    readonly max: number,
    readonly timeoutMs: number,
  ) {}

  /** The error a read of `relative` gets at once, without touching the disk; else undefined. */
  refusal(uri: string, relative: string): ProtocolError | undefined {
    if (this.byPath.has(relative)) return readStalled(uri, 'path', this.timeoutMs);
    if (this.byPath.size >= this.max) return readStalled(uri, 'folder', this.timeoutMs, this.max);
    return undefined;
  }

  /**
   * `work`, given up on at its time limit for `relative`: counted until it settles. Readers of
   * one path share its read (one job, one flight): however many give up on it, it holds one
   * thread, and counts once towards `max`.
   */
  abandon(relative: string, work: Promise<unknown>): void {
    this.byPath.set(relative, (this.byPath.get(relative) ?? 0) + 1);
    const settled = (): void => {
      const left = (this.byPath.get(relative) ?? 1) - 1;
      if (left > 0) this.byPath.set(relative, left);
      else this.byPath.delete(relative);
    };
    work.then(settled, settled);
  }
}
