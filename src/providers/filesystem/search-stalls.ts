/**
 * The search worker's reads that outlived their time limit, and the files to read again. A stalled
 * read holds a thread until its OS call returns (a read worker's, or one of libuv's pool, shared
 * by every file call of the process): its path is not read again meanwhile, past maxDirectStalls()
 * no direct read starts, and past the read workers' room for held jobs no pooled read starts. A
 * read that timed out or failed is queued again a few times, further apart each time; one that
 * stalled, once it returned. A pooled read's limit counts from when a worker takes it, and the
 * pool grows past workers held by hung files.
 */
import { ReadPool, type StartReadWorker } from './read-pool.js';
import { timerFor } from './read-timeout.js';

/**
 * Direct reads (libuv's pool) past their time limit at most; beyond, none starts: a quarter of
 * the pool (UV_THREADPOOL_SIZE, else 4), between 1 and 4, so that with the provider's own
 * stalled reads (half of it) a thread stays for healthy files.
 */
export function maxDirectStalls(): number {
  const pool = Number(process.env['UV_THREADPOOL_SIZE']);
  const threads = Number.isSafeInteger(pool) && pool > 0 ? pool : 4;
  return Math.min(4, Math.max(1, Math.floor(threads / 4)));
}

/** Snippet and phrase reads in flight at most (stalled ones included); more wait for a turn. */
export const MAX_LIVE_READS = 8;

/** Reads of one version of a file at most, the first one included. */
export const READ_TRIES = 4;

/** The first wait before a file is read again (ms); each later one is twice as long. */
export const RETRY_MS = 10_000;

export class SearchStalls {
  /** Stalled reads by path, and how many of them are direct. */
  private readonly byPath = new Map<string, number>();
  private direct = 0;
  private pooled = 0;
  private readonly maxDirect = maxDirectStalls();
  private readonly tries = new Map<string, number>();
  /** Paths due to be read again once their stalled read returns. */
  private readonly due = new Set<string>();
  private live = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    /** Queues `path` again (when it is still listed and not indexed); none: room to read. */
    private readonly requeue: (path?: string) => void,
    private readonly retryMs: number,
    /** Pooled reads that may be held at once (the read workers beyond the base ones). */
    private readonly pooledRoom: number,
  ) {}

  /** Whether `path` has a read past its time limit still pending. */
  stalled(path: string): boolean {
    return this.byPath.has(path);
  }

  /** Whether no new direct read may start (too many hold libuv's threads). */
  get directFull(): boolean {
    return this.direct >= this.maxDirect;
  }

  /** Whether a pooled read is stalled (its worker is held: the pool must not be closed). */
  get holdsWorkers(): boolean {
    return this.pooled > 0;
  }

  /** Whether no new pooled read may start (the read workers' room for held jobs is taken). */
  get pooledFull(): boolean {
    return this.pooled >= this.pooledRoom;
  }

  /** `work`, a read of `path` past its time limit: counted until it settles. */
  stall(path: string, work: Promise<unknown>, direct: boolean): void {
    this.byPath.set(path, (this.byPath.get(path) ?? 0) + 1);
    if (direct) this.direct++;
    else this.pooled++;
    this.wake(); // a live read waiting for a turn may now have to give up
    const settled = (): void => {
      if (direct) this.direct--;
      else this.pooled--;
      const left = (this.byPath.get(path) ?? 1) - 1;
      if (left > 0) return void this.byPath.set(path, left);
      this.byPath.delete(path);
      this.requeue(this.due.delete(path) ? path : undefined);
    };
    work.then(settled, settled);
  }

  /**
   * A turn for a snippet or phrase read (all searches together): true once one is free (call
   * {@link endLive} when the read's OS calls returned), false when direct reads are stalled.
   */
  async liveTurn(): Promise<boolean> {
    for (;;) {
      if (this.directFull) return false;
      if (this.live < MAX_LIVE_READS) {
        this.live++;
        return true;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  endLive(): void {
    this.live--;
    this.wake();
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** The read of `path` indexed nothing (timed out, failed, or was not started): read it later. */
  failed(path: string): void {
    const tries = (this.tries.get(path) ?? 0) + 1;
    this.tries.set(path, tries);
    if (tries >= READ_TRIES) return;
    timerFor(this.retryMs * 2 ** (tries - 1), () => {
      if (this.tries.get(path) !== tries) return; // indexed, changed or removed meanwhile
      if (this.byPath.has(path)) this.due.add(path);
      else this.requeue(path);
    });
  }

  /** `path` was indexed, changed or removed: its tries count again from none. */
  reset(path: string): void {
    this.tries.delete(path);
    this.due.delete(path);
  }
}

/** Read workers of the search worker's builds: each costs an isolate (~25 MiB) while it runs. */
export const SEARCH_READ_WORKERS = 2;
/** Read workers started beyond those for workers held by hung files. */
export const SEARCH_HELD_WORKERS = 4;
/** How many time limits a pooled read may wait for a worker before it is given up on. */
const QUEUE_WAITS = 10;

/**
 * The read workers of the search worker's builds: SEARCH_READ_WORKERS, and up to
 * SEARCH_HELD_WORKERS more in place of workers held by hung files (`start`: a test's stand-ins).
 */
export function searchReadPool(start?: StartReadWorker): ReadPool {
  return new ReadPool(SEARCH_READ_WORKERS + SEARCH_HELD_WORKERS, start, SEARCH_READ_WORKERS);
}

export const TIMED_OUT = Symbol('timed out');
export const FAILED = Symbol('failed');

/**
 * `work(started)`, or TIMED_OUT once `ms` passed from its call of `started` (the work is left to
 * end alone, handed to `late`), or once QUEUE_WAITS times `ms` passed without it.
 */
export function within<T>(
  ms: number,
  late: (work: Promise<unknown>) => void,
  work: (started: () => void) => Promise<T | undefined>,
): Promise<T | undefined | typeof TIMED_OUT> {
  return new Promise((resolve, reject) => {
    let limit: NodeJS.Timeout | undefined;
    let begun = false;
    const waiting = timerFor(QUEUE_WAITS * ms, () => begun || resolve(TIMED_OUT));
    const started = (): void => {
      if (begun) return;
      begun = true;
      clearTimeout(waiting);
      limit = timerFor(ms, () => (late(running), resolve(TIMED_OUT)));
    };
    const running = work(started);
    const done = (): void => (clearTimeout(waiting), clearTimeout(limit));
    running.then(
      (value) => (done(), resolve(value)),
      (error: unknown) => (done(), reject(error)),
    );
  });
}
