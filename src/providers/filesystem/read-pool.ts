/**
 * A few worker threads that run whole guarded reads (read-job.ts), one job per worker at a time.
 * One message each way replaces the eight libuv hops of an uncached read (realpath, stat, open,
 * fstat, the descriptor's path, read, fstat, close), and the bytes are decoded or base64-encoded
 * off the main thread. A worker held by a slow or hung file holds only its job: when every
 * worker has been busy on one job for a while, the pool grows, up to `max`.
 */
import { Worker } from 'node:worker_threads';
import { revived, type ReadJob, type ReadJobResult } from './read-job.js';

/** Workers started before the pool grows only for slow jobs. */
export const BASE_READ_WORKERS = 4;

/** Workers at most by default: the base, and room for 16 reads held by slow or hung files. */
export const DEFAULT_READ_WORKERS = BASE_READ_WORKERS + 16;

/** How long every worker must have been on its job before another one starts (ms). */
const SLOW_JOB_MS = 100;

interface Task {
  readonly job: ReadJob;
  resolve(result: ReadJobResult): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  task: Task | undefined;
  since: number;
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

export class ReadPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  private growTimer: ReturnType<typeof setTimeout> | undefined;
  private nextId = 0;

  /** `max`: workers at most, counting those held by slow files. */
  constructor(readonly max: number) {}

  /** Workers now. */
  get size(): number {
    return this.slots.length;
  }

  run(job: ReadJob): Promise<ReadJobResult> {
    return new Promise((resolve, reject) => {
      const task = { job, resolve, reject };
      const idle =
        this.slots.find((s) => s.task === undefined) ??
        (this.slots.length < Math.min(BASE_READ_WORKERS, this.max) ? this.spawn() : undefined);
      if (idle) this.assign(idle, task);
      else {
        this.waiting.push(task);
        this.armGrowth();
      }
    });
  }

  /** Stops every worker; a job in flight fails. The pool starts workers again when used. */
  close(): void {
    if (this.growTimer !== undefined) clearTimeout(this.growTimer);
    this.growTimer = undefined;
    for (const slot of this.slots.splice(0)) {
      slot.task?.reject(new Error('the read pool was closed'));
      slot.task = undefined;
      void slot.worker.terminate();
    }
    for (const task of this.waiting.splice(0)) task.reject(new Error('the read pool was closed'));
  }

  private spawn(): Slot {
    const worker = startWorker();
    worker.unref();
    const slot: Slot = { worker, task: undefined, since: 0 };
    const done = (): Task | undefined => {
      const task = slot.task;
      slot.task = undefined;
      return task;
    };
    worker.on(
      'message',
      (message: {
        id: number;
        result?: ReadJobResult;
        error?: { message: string; code?: string };
      }) => {
        // An answer that was on its way when close() stopped the worker: its job already failed.
        if (!this.slots.includes(slot)) return;
        const task = done();
        if (message.result) task?.resolve(reviveResult(message.result));
        else task?.reject(asError(message.error ?? { message: 'the read worker failed' }));
        this.next(slot);
      },
    );
    const lost = (error: unknown): void => {
      const at = this.slots.indexOf(slot);
      if (at >= 0) this.slots.splice(at, 1);
      done()?.reject(
        error instanceof Error ? error : new Error(`the read worker stopped (${String(error)})`),
      );
      this.drain();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(`exit code ${code}`));
    this.slots.push(slot);
    return slot;
  }

  private assign(slot: Slot, task: Task): void {
    slot.task = task;
    slot.since = performance.now();
    slot.worker.postMessage({ id: this.nextId++, job: task.job });
  }

  private next(slot: Slot): void {
    const task = this.waiting.shift();
    if (task) this.assign(slot, task);
  }

  /** Hands waiting tasks to idle workers, or starts the base workers again. */
  private drain(): void {
    while (this.waiting.length > 0) {
      const idle =
        this.slots.find((s) => s.task === undefined) ??
        (this.slots.length < Math.min(BASE_READ_WORKERS, this.max) ? this.spawn() : undefined);
      if (!idle) break;
      this.assign(idle, this.waiting.shift() as Task);
    }
  }

  /** While tasks wait, checks every few ms whether every worker is stuck on a slow job. */
  private armGrowth(): void {
    if (this.growTimer !== undefined) return;
    this.growTimer = setTimeout(() => {
      this.growTimer = undefined;
      if (this.waiting.length === 0) return;
      const now = performance.now();
      const stuck = this.slots.every((s) => s.task !== undefined && now - s.since >= SLOW_JOB_MS);
      if (stuck && this.slots.length < this.max)
        this.assign(this.spawn(), this.waiting.shift() as Task);
      this.armGrowth();
    }, SLOW_JOB_MS);
    this.growTimer.unref();
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
