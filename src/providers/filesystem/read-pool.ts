/**
 * A few worker threads that run whole guarded reads (read-job.ts). One message each way replaces
 * the eight libuv hops of an uncached read (realpath, stat, open, fstat, the descriptor's path,
 * read, fstat, close), and the bytes are decoded or base64-encoded off the main thread. A worker
 * runs its jobs one after another and is handed a few at a time (waking an idle thread for each
 * job costs the main thread more than the message). A worker held by a slow or hung file holds
 * only the job it runs: the jobs queued behind it go to other workers, and when every worker is
 * held so, the pool grows, up to `max`.
 */
import { Worker } from 'node:worker_threads';
import { revived, type ReadJob, type ReadJobResult } from './read-job.js';

/** Workers started before the pool grows only for slow jobs. */
export const BASE_READ_WORKERS = 4;

/** Workers at most by default: the base, and room for 16 reads held by slow or hung files. */
export const DEFAULT_READ_WORKERS = BASE_READ_WORKERS + 16;

/** Jobs handed to one worker at a time: the one it runs and the next ones. */
const JOBS_PER_WORKER = 4;

/** How long a worker may run one job before the jobs queued behind it go to others (ms). */
const SLOW_JOB_MS = 50;

/**
 * How long a worker must have run one job before another worker starts in its place (ms):
 * longer, so that a worker merely starved of CPU on a loaded machine is not counted.
 */
const HELD_JOB_MS = 250;

interface Task {
  readonly id: number;
  readonly job: ReadJob;
  resolve(result: ReadJobResult): void;
  reject(error: Error): void;
}

/** What the pool uses of a worker thread (a test may start a stand-in). */
export type ReadWorker = Pick<Worker, 'postMessage' | 'on' | 'terminate' | 'unref'>;

interface Slot {
  readonly worker: ReadWorker;
  /** Ids handed to the worker, in the order it runs them; the first is running. */
  readonly ids: number[];
  /** When the first one started. */
  since: number;
  /** Its running job outlived SLOW_JOB_MS: nothing more is handed to it until it answers. */
  held: boolean;
}

/** The worker's module beside this one; from the TypeScript sources (tests), through tsx. */
function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./read-worker.js', here));
  // An evaluated worker resolves bare names from the working directory: the project's.
  const entry = new URL('./read-worker.ts', here).href;
  const boot = `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true });
}

function asError(raw: { message: string; code?: string }): Error {
  const error = new Error(raw.message) as Error & { code?: string };
  if (raw.code !== undefined) error.code = raw.code;
  return error;
}

export interface Answer {
  id: number;
  result?: ReadJobResult;
  error?: { message: string; code?: string };
}

export class ReadPool {
  private readonly slots: Slot[] = [];
  /** Jobs not settled yet, by id; a job moved off a held worker may be answered by either. */
  private readonly pending = new Map<number, Task>();
  private readonly waiting: Task[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private nextId = 0;

  /** `max`: workers at most, counting those held by slow files. */
  constructor(
    readonly max: number,
    private readonly start: () => ReadWorker = startWorker,
  ) {}

  /** Workers now. */
  get size(): number {
    return this.slots.length;
  }

  run(job: ReadJob): Promise<ReadJobResult> {
    return new Promise((resolve, reject) => {
      const task: Task = { id: this.nextId++, job, resolve, reject };
      this.pending.set(task.id, task);
      this.waiting.push(task);
      this.drain();
    });
  }

  /** Stops every worker; a job in flight fails. The pool starts workers again when used. */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const slot of this.slots.splice(0)) void slot.worker.terminate();
    this.waiting.length = 0;
    const closed = new Error('the read pool was closed');
    for (const task of this.pending.values()) task.reject(closed);
    this.pending.clear();
  }

  private spawn(): Slot {
    const worker = this.start();
    worker.unref();
    const slot: Slot = { worker, ids: [], since: 0, held: false };
    worker.on('message', (answer: Answer) => this.answered(slot, answer));
    const lost = (error: unknown): void => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return; // closed, or lost already
      this.slots.splice(at, 1);
      const why =
        error instanceof Error ? error : new Error(`the read worker stopped (${String(error)})`);
      for (const id of slot.ids) this.settle(id)?.reject(why);
      this.drain();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(`exit code ${code}`));
    this.slots.push(slot);
    return slot;
  }

  private answered(slot: Slot, answer: Answer): void {
    // An answer that was on its way when close() stopped the worker: its job already failed.
    if (!this.slots.includes(slot)) return;
    const at = slot.ids.indexOf(answer.id);
    if (at >= 0) slot.ids.splice(at, 1);
    if (at === 0) {
      slot.since = performance.now();
      slot.held = false;
    }
    const task = this.settle(answer.id);
    if (answer.result) task?.resolve(reviveResult(answer.result));
    else task?.reject(asError(answer.error ?? { message: 'the read worker failed' }));
    this.drain();
  }

  /** The task of `id` when it is still pending, taken out of the table. */
  private settle(id: number): Task | undefined {
    const task = this.pending.get(id);
    this.pending.delete(id);
    return task;
  }

  /** Hands waiting jobs to the least busy workers that are not held; starts the base ones. */
  private drain(): void {
    while (this.waiting.length > 0) {
      let best: Slot | undefined;
      for (const slot of this.slots)
        if (!slot.held && slot.ids.length < JOBS_PER_WORKER)
          if (!best || slot.ids.length < best.ids.length) best = slot;
      if (!best || best.ids.length > 0) {
        if (this.slots.length < Math.min(BASE_READ_WORKERS, this.max)) best = this.spawn();
        else if (!best) break;
      }
      const task = this.waiting.shift() as Task;
      if (!this.pending.has(task.id)) continue; // answered meanwhile by a held worker
      if (best.ids.length === 0) best.since = performance.now();
      best.ids.push(task.id);
      best.worker.postMessage({ id: task.id, job: task.job });
    }
    if (
      this.timer === undefined &&
      (this.waiting.length > 0 || this.slots.some((s) => s.ids.length > 1))
    )
      this.watch();
  }

  /**
   * While jobs wait behind others, checks every SLOW_JOB_MS for workers held by a slow job: the
   * jobs queued behind it go back to be handed to others, and while fewer than the base number
   * of workers are free of jobs of HELD_JOB_MS, the pool grows to that number.
   */
  private watch(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const now = performance.now();
      for (const slot of this.slots) {
        if (slot.held || slot.ids.length === 0 || now - slot.since < SLOW_JOB_MS) continue;
        slot.held = true;
        const queued = slot.ids.splice(1).flatMap((id) => this.pending.get(id) ?? []);
        this.waiting.unshift(...queued);
      }
      // Workers held this long do not count: the pool keeps the base number for other files.
      const free = this.slots.filter((s) => !s.held || now - s.since < HELD_JOB_MS).length;
      const base = Math.min(BASE_READ_WORKERS, this.max);
      if (this.waiting.length > 0)
        for (let n = free; n < base && this.slots.length < this.max; n++) this.spawn();
      this.drain();
    }, SLOW_JOB_MS);
    this.timer.unref();
  }
}

/** The pool `readWorkers` asks for: undefined for 0. */
export function readPoolOf(readWorkers: number | undefined): ReadPool | undefined {
  const max = readWorkers ?? DEFAULT_READ_WORKERS;
  if (!Number.isSafeInteger(max) || max < 0)
    throw new RangeError(
      `readWorkers must be a whole number, 0 or more (got ${String(readWorkers)})`,
    );
  return max === 0 ? undefined : new ReadPool(max);
}

function reviveResult(result: ReadJobResult): ReadJobResult {
  if (result.resolved.kind === 'file') revived(result.resolved.stats);
  if (result.outcome?.kind === 'ok' && result.outcome.version) revived(result.outcome.version);
  return result;
}
