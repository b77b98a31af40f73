/**
 * One worker of the read pool (read-pool.ts) and the jobs handed to it: how it is started, what
 * it answers, and how busy its thread is.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from './worker-start.js';
import type { ReadJobResult } from './read-job.js';

/** What the pool uses of a worker thread (a test may start a stand-in). */
export type ReadWorker = Pick<Worker, 'postMessage' | 'on' | 'terminate' | 'unref'>;

/** Starts a worker that takes jobs through `claims` (see read-pool.ts, CLAIMS). */
export type StartReadWorker = (claims: Int32Array) => ReadWorker;

/** A worker as the pool tracks it. */
export interface Slot {
  readonly worker: ReadWorker;
  /** Ids handed to the worker and not answered by it yet, in the order it runs them. */
  readonly ids: number[];
  /** When the first one started. */
  since: number;
  /** Its running job outlived the pool's slow-job time: nothing more is handed to it till then. */
  held: boolean;
  /** When it last had nothing to do. */
  idleSince: number;
  /** Jobs of its asleep waiting for their files to settle, by id: when they wake. */
  readonly wakes: Map<number, number>;
  /**
   * It said it is ready (its modules loaded). Until then its jobs' clock does not run: a thread
   * that takes long to start on a loaded machine is not one held by a slow file.
   */
  ready: boolean;
}

/** A new worker's slot: nothing handed to it yet, not ready. */
export function slotOf(worker: ReadWorker): Slot {
  return {
    worker,
    ids: [],
    since: 0,
    held: false,
    idleSince: performance.now(),
    wakes: new Map(),
    ready: false,
  };
}

/** The jobs that hold a worker's thread: those handed to it, less those asleep (parked). */
export function loadOf(slot: Slot, now: number): number {
  let asleep = 0;
  for (const wakes of slot.wakes.values()) if (wakes > now) asleep++;
  return slot.ids.length - asleep;
}

/** A worker's answer: the job's result or error, or `skipped` when another worker claimed it. */
export interface Answer {
  id: number;
  result?: ReadJobResult;
  error?: { message: string; code?: string };
  skipped?: boolean;
  /** Not an answer: the job sleeps this long (ms) waiting for its file to settle. */
  parked?: number;
  /** Not an answer: the worker started and takes jobs (sent once, with id -1). */
  ready?: boolean;
}

/**
 * A read worker's young generation (MiB): it keeps little alive between jobs, and V8's default
 * (up to 3 x 16 MiB) would let each worker hold tens of MiB of garbage.
 */
const READ_WORKER_YOUNG_MB = 4;

export function startReadWorker(claims: Int32Array): Worker {
  return startModuleWorker(
    import.meta.url,
    'read-worker',
    { claims },
    {
      maxYoungGenerationSizeMb: READ_WORKER_YOUNG_MB,
    },
  );
}

/** The error a worker's answer carries, with its code. */
export function asError(raw: { message: string; code?: string }): Error {
  const error = new Error(raw.message) as Error & { code?: string };
  if (raw.code !== undefined) error.code = raw.code;
  return error;
}
