/**
 * The whole guarded read of one path as one job, run by a read-pool worker (read-worker.ts,
 * which gives it blocking calls): the same guards as a read on the main thread (resolveInRoot,
 * then readFileContents, which opens through openInRoot), one message each way instead of
 * eight hops through libuv's pool.
 */
import { Stats } from 'node:fs';
import type { ProviderFs } from './fs-types.js';
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

/** Resolves `job.relative` and, when its contents may be cached, reads them. */
export async function runReadJob(fs: ProviderFs, job: ReadJob): Promise<ReadJobResult> {
  const { root, relative, visibility, refuseHardLinks, limitBytes } = job;
  const within = { root, visibility, refuseHardLinks };
  const resolved = await resolveInRoot(fs, root, relative, visibility, within);
  if (resolved.kind !== 'file') return { resolved };
  const { size } = resolved.stats;
  const least = leastWireBytes(relative, size, job.known);
  if (least > limitBytes || least > job.keepsWireBytes) return { resolved };
  const control = job.known !== undefined ? { known: job.known } : {};
  const outcome = await readFileContents(fs, resolved.real, relative, limitBytes, within, control);
  return { resolved, outcome };
}

/** A job and its id as the pool sends them to a worker. */
export interface JobMessage {
  readonly id: number;
  readonly job: ReadJob;
}

/**
 * A job as its message to a worker: its fields as one JSON string. Structured cloning walks a
 * nested object field by field on both threads (~6 µs each way for a job); one string crosses
 * in ~2. JSON has no infinity: a limit without end crosses as null.
 */
export function jobMessage(id: number, job: ReadJob): string {
  const { visibility, known } = job;
  return JSON.stringify([
    id,
    job.root,
    job.relative,
    visibility.hidden,
    [...visibility.ignore],
    job.refuseHardLinks,
    job.limitBytes,
    job.keepsWireBytes,
    known?.mimeType ?? null,
    known?.size ?? null,
    job.settleMs ?? null,
  ]);
}

/** The job of a {@link jobMessage}. */
export function jobOfMessage(text: string): JobMessage {
  const [
    id,
    root,
    relative,
    hidden,
    ignore,
    refuseHardLinks,
    limit,
    keeps,
    mimeType,
    size,
    settle,
  ] = JSON.parse(text) as [
    number,
    string,
    string,
    boolean,
    string[],
    boolean,
    number | null,
    number | null,
    string | null,
    number | null,
    number | null,
  ];
  const job: ReadJob = {
    root,
    relative,
    visibility: { hidden, ignore: new Set(ignore) },
    refuseHardLinks,
    limitBytes: limit ?? Number.POSITIVE_INFINITY,
    keepsWireBytes: keeps ?? Number.POSITIVE_INFINITY,
    ...(mimeType !== null && size !== null ? { known: { mimeType, size } } : {}),
    ...(settle !== null ? { settleMs: settle } : {}),
  };
  return { id, job };
}

/** Stats as a worker's message brings them (plain fields) made Stats again. */
export function revived<T extends object>(stats: T): Stats {
  return Object.setPrototypeOf(stats, Stats.prototype) as Stats;
}
