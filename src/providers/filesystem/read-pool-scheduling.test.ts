/**
 * How the read pool hands jobs to its workers, with stand-in workers that answer when told: a
 * few jobs per worker, jobs queued behind a held worker moved to others, growth only while
 * workers are held, late answers of moved jobs ignored.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReadJob, ReadJobResult } from './read-job.js';
import { BASE_READ_WORKERS, ReadPool, type Answer, type ReadWorker } from './read-pool.js';

/** A stand-in worker: answers every job at once, except those named `hang*`, held until freed. */
class FakeWorker extends EventEmitter {
  readonly received: number[] = [];
  readonly held: { id: number; relative: string }[] = [];
  /** When the last job given to it answers (jobs run one after another). */
  private busyUntil = 0;

  constructor(private readonly jobMs: number) {
    super();
  }

  postMessage(message: { id: number; job: ReadJob }): void {
    this.received.push(message.id);
    if (message.job.relative.startsWith('hang')) {
      this.held.push({ id: message.id, relative: message.job.relative });
      return;
    }
    // A worker runs its jobs one after another: a job behind a held one waits.
    if (this.held.length > 0) {
      this.held.push({ id: message.id, relative: message.job.relative });
      return;
    }
    if (this.jobMs === 0) {
      setImmediate(() => this.answer(message.id, message.job.relative));
      return;
    }
    this.busyUntil = Math.max(this.busyUntil, Date.now()) + this.jobMs;
    setTimeout(() => this.answer(message.id, message.job.relative), this.busyUntil - Date.now());
  }

  answer(id: number, relative: string): void {
    const answer: Answer = {
      id,
      result: { resolved: { kind: 'refused', reason: `answered ${relative} by worker` } },
    };
    this.emit('message', answer);
  }

  /** Lets every held job answer, in order. */
  free(): void {
    for (const { id, relative } of this.held.splice(0)) this.answer(id, relative);
  }

  terminate(): Promise<number> {
    return Promise.resolve(0);
  }

  unref(): void {}
}

const pools: ReadPool[] = [];
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close();
});

function fakePool(max: number, jobMs = 0): { pool: ReadPool; workers: FakeWorker[] } {
  const workers: FakeWorker[] = [];
  const pool = new ReadPool(max, () => {
    const worker = new FakeWorker(jobMs);
    workers.push(worker);
    return worker as unknown as ReadWorker;
  });
  pools.push(pool);
  return { pool, workers };
}

function job(relative: string): ReadJob {
  return {
    root: '/nowhere',
    relative,
    visibility: { hidden: false, ignore: new Set() },
    refuseHardLinks: false,
    limitBytes: 1024,
    keepsWireBytes: 1024,
  };
}

const reasonOf = (r: ReadJobResult): string =>
  r.resolved.kind === 'refused' ? r.resolved.reason : r.resolved.kind;

describe('ReadPool scheduling', () => {
  it('keeps the base workers under load that never holds one', async () => {
    // Jobs of 2 ms each: 300 of them keep jobs waiting for ~150 ms, none is slow.
    const { pool, workers } = fakePool(BASE_READ_WORKERS + 16, 2);
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) => pool.run(job(`f${i}`))),
    );
    expect(results.map(reasonOf)).toEqual(
      Array.from({ length: 300 }, (_, i) => `answered f${i} by worker`),
    );
    expect(workers).toHaveLength(BASE_READ_WORKERS);
    // Several jobs per worker at a time: fewer wake-ups than one job per message round.
    expect(workers.every((w) => w.received.length > 0)).toBe(true);
  });

  it('moves the jobs queued behind a held worker to the others', async () => {
    const { pool, workers } = fakePool(BASE_READ_WORKERS);
    const hung = pool.run(job('hang-1'));
    // Enough jobs at once that some are queued behind the hung one.
    const fast = Array.from({ length: 4 * BASE_READ_WORKERS }, (_, i) => pool.run(job(`f${i}`)));
    const first = workers[0] as FakeWorker;
    expect(first.held.length).toBeGreaterThan(1);
    const results = await Promise.all(fast);
    expect(results.map(reasonOf)).toEqual(fast.map((_, i) => `answered f${i} by worker`));
    let hungDone = false;
    void hung.then(() => (hungDone = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(hungDone).toBe(false);
    // The held worker answers at last, the moved jobs too: those answers are ignored.
    first.free();
    expect(reasonOf(await hung)).toBe('answered hang-1 by worker');
    expect((await pool.run(job('after'))).resolved).toMatchObject({ kind: 'refused' });
  });

  it('grows while fewer than the base workers are free of a held job, never past max', async () => {
    const { pool, workers } = fakePool(BASE_READ_WORKERS + 2);
    const hung = Array.from({ length: BASE_READ_WORKERS + 3 }, (_, i) =>
      pool.run(job(`hang-${i}`)),
    );
    const fast = pool.run(job('fast'));
    expect(reasonOf(await fast)).toBe('answered fast by worker');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(workers).toHaveLength(BASE_READ_WORKERS + 2);
    for (const worker of workers) worker.free();
    expect((await Promise.all(hung)).map(reasonOf)).toEqual(
      hung.map((_, i) => `answered hang-${i} by worker`),
    );
  });

  it('rejects the jobs of a worker that stops, and serves the next ones with a new worker', async () => {
    const { pool, workers } = fakePool(1);
    const hung = pool.run(job('hang'));
    (workers[0] as FakeWorker).emit('exit', 1);
    await expect(hung).rejects.toThrow(/the read worker stopped \(exit code 1\)/);
    expect(reasonOf(await pool.run(job('next')))).toBe('answered next by worker');
    expect(workers).toHaveLength(2);
  });
});
