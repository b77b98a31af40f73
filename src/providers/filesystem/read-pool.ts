/**
 * A few worker threads that run whole guarded reads (read-job.ts). One message each way replaces
 * the eight libuv hops of an uncached read (realpath, stat, open, fstat, the descriptor's path,
 * read, fstat, close), and the bytes are decoded or base64-encoded off the main thread. A worker
 * runs its jobs one after another and is handed a few at a time (waking an idle thread for each
 * job costs the main thread more than the message). A worker held by a slow or hung file holds
 * only the job it runs: the jobs queued behind it go to other workers, and when every worker is
 * held so, the pool grows, up to `max` (later while the process's threads use every core: then
 * a read is slow for want of CPU first, which more workers cannot give).
 */
import { availableParallelism } from 'node:os';
import { McpKitError } from '../../errors/mcpkit-error.js';
import { maxStalledReadsOf, ReadStalls } from './read-stalls.js';
import { jobMessage, revived, type ReadJob, type ReadJobResult } from './read-job.js';
import { CpuSaturation } from './cpu-saturation.js';
import { IdTable } from '../../protocol/id-table.js';
import {
  asError,
  loadOf,
  slotOf,
  startReadWorker,
  type Answer,
  type Slot,
  type StartReadWorker,
} from './read-slot.js';

export type { Answer, ReadWorker, StartReadWorker } from './read-slot.js';

/** Workers started before the pool grows only for slow jobs. */
export const BASE_READ_WORKERS = 4;

/** Workers at most by default: the base, and room for 16 reads held by slow or hung files. */
export const DEFAULT_READ_WORKERS = BASE_READ_WORKERS + 16;

/** Jobs handed to one worker at a time: the one it runs and the next ones. */
const JOBS_PER_WORKER = 4;

/**
 * Jobs handed to one worker at most, counting those asleep waiting for their files to settle: a
 * claimed job cannot move to another worker, so a worker that a slow file then holds keeps them.
 */
const MOST_HANDED = 2 * JOBS_PER_WORKER;

/** How long a worker may run one job before the jobs queued behind it go to others (ms). */
const SLOW_JOB_MS = 50;

/**
 * How long a worker must have run one job before another worker starts in its place (ms):
 * longer, so that a worker merely starved of CPU on a loaded machine is not counted.
 */
const HELD_JOB_MS = 250;

/** The same while the process keeps every core busy (a starved job still ends well before). */
const SATURATED_HELD_JOB_MS = 2000;

interface Task {
  readonly id: number;
  readonly job: ReadJob;
  resolve(result: ReadJobResult): void;
  reject(error: Error): void;
  /** The worker answerable for it now; undefined while it waits. */
  at: Slot | undefined;
  /** Its claim was written (on its first hand-over). */
  posted: boolean;
  /** Called once, when a worker is about to run it (first in a worker's queue). */
  onStart: (() => void) | undefined;
}

/**
 * Claims of jobs, shared with every worker: a job handed to two workers (moved off a held one)
 * runs once, in whichever takes it first (`Atomics.compareExchange` of its id to -1); the other
 * answers "skipped". Indexed by id modulo the length.
 */
export const CLAIMS = 1 << 16;

/** Ids stay below 2^31, so that an Int32Array holds them. */
const ID_SPAN = 2 ** 31;

/** How long a worker beyond the base may stay idle before it stops (ms). */
const IDLE_WORKER_MS = 5000;

export class ReadPool {
  private readonly slots: Slot[] = [];
  /** Jobs not settled yet, by id. */
  private readonly pending = new IdTable<Task>();
  private readonly waiting: Task[] = [];
  private readonly claims = new Int32Array(new SharedArrayBuffer(CLAIMS * 4));
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The watch's decision, due once this turn's I/O (the workers' answers) is handled. */
  private deciding: ReturnType<typeof setImmediate> | undefined;
  private pruneTimer: ReturnType<typeof setTimeout> | undefined;
  private nextId = 0;

  /**
   * `max`: workers at most, counting those held by slow files; `baseWorkers`: kept free of them;
   * `activeWorkers`: how many of the free ones take jobs (default: one per core, at most the
   * base). The others are spares: they run jobs only while workers are held by slow files. Each
   * worker that runs jobs warms its own JIT and is woken for its own messages: on 2 cores, 2
   * working workers instead of 4 cost ~13% less CPU per cold read and answer ~10% more of them.
   */
  constructor(
    readonly max: number,
    private readonly start: StartReadWorker = startReadWorker,
    private readonly baseWorkers = BASE_READ_WORKERS,
    private readonly cpu: Pick<CpuSaturation, 'saturated'> = new CpuSaturation(),
    activeWorkers = availableParallelism(),
  ) {
    this.active = Math.max(1, Math.min(activeWorkers, this.base));
  }

  /** Free workers that take jobs; the rest of the free ones are spares. */
  private readonly active: number;

  /** Workers now. */
  get size(): number {
    return this.slots.length;
  }

  private get base(): number {
    return Math.min(this.baseWorkers, this.max);
  }

  /** Workers that may be held by slow or hung files while the base ones stay free. */
  get heldRoom(): number {
    return this.max - this.base;
  }

  /**
   * Runs `job`; `onStart` is called when a worker is about to run it (time spent waiting
   * behind other jobs does not count against a caller's time limit).
   */
  run(job: ReadJob, onStart?: () => void): Promise<ReadJobResult> {
    return new Promise((resolve, reject) => {
      const id = this.nextId;
      this.nextId = (id + 1) % ID_SPAN;
      const task: Task = { id, job, resolve, reject, at: undefined, posted: false, onStart };
      this.pending.set(id, task);
      this.waiting.push(task);
      this.drain();
    });
  }

  /** Stops every worker; a job in flight fails. The pool starts workers again when used. */
  close(): void {
    for (const timer of [this.timer, this.pruneTimer]) if (timer !== undefined) clearTimeout(timer);
    if (this.deciding !== undefined) clearImmediate(this.deciding);
    this.timer = this.pruneTimer = this.deciding = undefined;
    for (const slot of this.slots.splice(0)) void slot.worker.terminate();
    this.waiting.length = 0;
    const closed = new McpKitError('PROVIDER_CLOSED', 'the read pool was closed');
    for (const task of this.pending.snapshot()) task.reject(closed);
    this.pending.clear();
  }

  private spawn(): Slot {
    const worker = this.start(this.claims);
    worker.unref();
    const slot = slotOf(worker);
    worker.on('message', (answer: Answer) => this.answered(slot, answer));
    const lost = (error: unknown): void => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return; // closed, stopped when idle, or lost already
      this.slots.splice(at, 1);
      const why =
        error instanceof Error ? error : new Error(`the read worker stopped (${String(error)})`);
      for (const id of slot.ids) {
        const task = this.pending.get(id);
        if (task?.at === slot || this.orphaned(id)) this.settle(id)?.reject(why);
      }
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
    if (!slot.ready) {
      slot.ready = true;
      slot.since = performance.now();
    }
    if (answer.ready) return;
    if (answer.parked !== undefined) {
      this.parked(slot, answer.id, answer.parked);
      return;
    }
    const at = slot.ids.indexOf(answer.id);
    if (at >= 0) slot.ids.splice(at, 1);
    slot.wakes.delete(answer.id);
    if (at === 0) {
      const next = slot.ids[0];
      slot.since = Math.max(performance.now(), (next !== undefined && slot.wakes.get(next)) || 0);
      slot.held = false;
      if (next !== undefined) began(this.pending.get(next));
    }
    if (slot.ids.length === 0) slot.idleSince = performance.now();
    if (!answer.skipped) {
      const task = this.settle(answer.id);
      if (answer.result) task?.resolve(reviveResult(answer.result));
      else task?.reject(asError(answer.error ?? { message: 'the read worker failed' }));
    } else if (this.orphaned(answer.id)) {
      this.settle(answer.id)?.reject(new Error('the read worker that took the job stopped'));
    }
    this.drain();
    if (this.slots.length > this.base) this.prune();
  }

  /**
   * The worker's running job sleeps `ms` for its file to settle: not held by a slow file, so its
   * clock starts again when it wakes, and it takes jobs meanwhile.
   */
  private parked(slot: Slot, id: number, ms: number): void {
    if (!slot.ids.includes(id)) return;
    const wakes = performance.now() + ms;
    slot.wakes.set(id, wakes);
    if (slot.ids[0] === id) {
      slot.since = Math.max(slot.since, wakes);
      slot.held = false;
    }
    this.drain(); // an asleep job leaves its worker room for others
  }

  /**
   * Whether the job `id` was claimed by a worker that is gone: claimed, and no worker left has
   * it (a worker lists a job until it answers it). Its other workers answer "skipped".
   */
  private orphaned(id: number): boolean {
    return (
      this.pending.has(id) &&
      Atomics.load(this.claims, id % CLAIMS) === -1 &&
      !this.slots.some((s) => s.ids.includes(id))
    );
  }

  /** The task of `id` when it is still pending, taken out of the table. */
  private settle(id: number): Task | undefined {
    return this.pending.take(id);
  }

  /** Hands waiting jobs to the least busy workers that are not held; starts the base ones. */
  private drain(): void {
    // The base workers start together, at the first job: a burst does not wait for them one
    // by one, and what the pool holds once used does not grow with the load.
    if (this.slots.length === 0 && this.waiting.length > 0)
      for (let n = 0; n < this.base; n++) this.spawn();
    const now = performance.now();
    while (this.waiting.length > 0) {
      let best: Slot | undefined;
      let least = JOBS_PER_WORKER;
      let free = 0;
      for (const slot of this.slots) {
        if (slot.held) continue;
        if (free++ === this.active) break; // the rest are spares for when workers are held
        if (slot.ids.length >= MOST_HANDED) continue;
        const load = loadOf(slot, now);
        // Between equal loads, the worker with fewer jobs asleep: a thread held by a new job
        // would keep them from waking.
        if (load < least || (load === least && best && slot.ids.length < best.ids.length))
          [best, least] = [slot, load];
      }
      if (!best || least > 0) {
        if (this.slots.length < this.base) best = this.spawn();
        else if (!best) break;
      }
      const task = this.waiting.shift() as Task;
      if (!this.pending.has(task.id)) continue; // answered meanwhile by a held worker
      if (!task.posted) Atomics.store(this.claims, task.id % CLAIMS, task.id);
      task.posted = true;
      task.at = best;
      // Its thread had nothing to run (idle, or its jobs asleep): this one runs now.
      if (loadOf(best, now) === 0) best.since = performance.now();
      best.ids.push(task.id);
      if (best.ids.length === 1) began(task);
      best.worker.postMessage(jobMessage(task.id, task.job));
    }
    if (
      this.timer === undefined &&
      (this.waiting.length > 0 || this.slots.some((s) => s.ids.length > 1))
    )
      this.watch();
  }

  /**
   * While jobs wait behind others, checks every SLOW_JOB_MS for workers held by a slow job: the
   * jobs queued behind it are handed to others too (the first to claim one runs it), and while
   * fewer than the base number of workers are free of jobs of HELD_JOB_MS, the pool grows to
   * that number.
   */
  private watch(): void {
    this.cpu.saturated(); // starts the window that decide() judges
    this.timer = setTimeout(() => {
      // Decided after this turn's I/O: answers that reached the pool while the main thread was
      // busy are counted first, so that a late timer does not take a blocked event loop (many
      // listen frames, say) for slow files and start workers that cannot help.
      // Not unref'd: an unref'd immediate does not stop the loop from blocking in its poll, and
      // on a quiet server the decision would wait for unrelated I/O (seconds).
      this.deciding = setImmediate(() => this.decide());
    }, SLOW_JOB_MS);
    this.timer.unref();
  }

  /** What the watch saw: workers held by slow jobs, and whether the pool grows. */
  private decide(): void {
    this.timer = this.deciding = undefined;
    const saturated = this.cpu.saturated();
    const now = performance.now();
    for (const slot of this.slots) {
      if (!slot.ready || slot.ids.length === 0 || now - slot.since < SLOW_JOB_MS) continue;
      slot.held = true;
      for (const id of slot.ids.slice(1)) {
        const task = this.pending.get(id);
        if (task?.at !== slot) continue;
        task.at = undefined;
        this.waiting.unshift(task);
      }
    }
    // Workers held this long do not count: the pool keeps the base number for other files.
    // With every core busy a job is slow for want of CPU first: a hung one is told later.
    const heldMs = saturated ? SATURATED_HELD_JOB_MS : HELD_JOB_MS;
    const free = this.slots.filter((s) => !s.held || now - s.since < heldMs).length;
    if (this.waiting.length > 0 && free < this.base)
      for (let n = free; n < this.base && this.slots.length < this.max; n++) this.spawn();
    this.drain();
  }

  /** Stops workers beyond the base once they have been idle for IDLE_WORKER_MS. */
  private prune(): void {
    if (this.pruneTimer !== undefined) return;
    this.pruneTimer = setTimeout(() => {
      this.pruneTimer = undefined;
      const now = performance.now();
      for (const slot of [...this.slots]) {
        if (this.slots.length <= this.base) break;
        if (slot.ids.length > 0 || now - slot.idleSince < IDLE_WORKER_MS) continue;
        this.slots.splice(this.slots.indexOf(slot), 1);
        void slot.worker.terminate();
      }
      if (this.slots.length > this.base) this.prune();
    }, IDLE_WORKER_MS);
    this.pruneTimer.unref();
  }
}

/**
 * The read pool of a provider (only over the default fs: `pooled`) and its bound on stalled
 * reads, which by default leaves the base workers free (see defaultMaxStalledReads).
 */
export function readersOf(
  options: { readWorkers?: number | undefined; maxStalledReads?: number | undefined },
  pooled: boolean,
  readTimeoutMs: number,
): { pool: ReadPool | undefined; stalls: ReadStalls } {
  const pool = readPoolOf(options.readWorkers);
  const held = pooled && pool ? pool.heldRoom : 0;
  const stalls = new ReadStalls(maxStalledReadsOf(options.maxStalledReads, held), readTimeoutMs);
  return { pool: pooled ? pool : undefined, stalls };
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

function began(task: Task | undefined): void {
  const onStart = task?.onStart;
  if (!task || !onStart) return;
  task.onStart = undefined;
  onStart();
}

function reviveResult(result: ReadJobResult): ReadJobResult {
  if (result.resolved.kind === 'file') revived(result.resolved.stats);
  if (result.outcome?.kind === 'ok' && result.outcome.version) revived(result.outcome.version);
  return result;
}
