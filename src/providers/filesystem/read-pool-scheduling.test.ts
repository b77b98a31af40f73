/**
 * How the read pool hands jobs to its workers, with stand-in workers that run their jobs one
 * after another and claim each as a real one does: a few jobs per worker, jobs queued behind a
 * held worker handed to others and run once, growth only while workers are held, workers beyond
 * the base stopped once idle.
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { jobOfMessage, type JobMessage, type ReadJob, type ReadJobResult } from './read-job.js';
import { BASE_READ_WORKERS, ReadPool, type Answer, type ReadWorker } from './read-pool.js';

/**
 * A stand-in worker: runs its inbox in order; a job named `hang*` holds it until `free()`; a
 * job another worker claimed first is answered "skipped", as read-worker.ts does.
 */
class FakeWorker extends EventEmitter {
  readonly ran: string[] = [];
  /** Jobs it answered "skipped" (claimed first by another worker). */
  skipped = 0;
  terminated = false;
  private readonly inbox: JobMessage[] = [];
  private busy = false;
  private hung: Answer | undefined;
  /** Answers of jobs that woke while the thread was held: a real worker's thread runs none. */
  private readonly blocked: Answer[] = [];

  constructor(
    private readonly claims: Int32Array,
    private readonly jobMs: number,
  ) {
    super();
    queueMicrotask(() => this.emit('message', { id: -1, ready: true }));
  }

  postMessage(message: string): void {
    this.inbox.push(jobOfMessage(message));
    this.step();
  }

  /** Ends the job it hangs on; then it runs the rest of its inbox. */
  free(): void {
    const answer = this.hung;
    if (!answer) return;
    this.hung = undefined;
    this.busy = false;
    this.emit('message', answer);
    for (const woke of this.blocked.splice(0)) this.emit('message', woke);
    this.step();
  }

  private step(): void {
    while (!this.busy) {
      const next = this.inbox.shift();
      if (!next) return;
      const { id, job } = next;
      if (Atomics.compareExchange(this.claims, id % this.claims.length, id, -1) !== id) {
        this.skipped++;
        queueMicrotask(() => this.emit('message', { id, skipped: true }));
        continue;
      }
      this.ran.push(job.relative);
      const result: ReadJobResult = {
        resolved: { kind: 'refused', reason: `answered ${job.relative} by worker` },
      };
      // park-N: waits N ms for its file to settle, saying so; the worker runs others meanwhile.
      const park = /^park-(\d+)/.exec(job.relative);
      if (park) {
        const ms = Number(park[1]);
        queueMicrotask(() => this.emit('message', { id, parked: ms }));
        setTimeout(() => {
          if (this.hung) this.blocked.push({ id, result });
          else this.emit('message', { id, result });
        }, ms);
        continue;
      }
      this.busy = true;
      if (job.relative.startsWith('hang')) {
        this.hung = { id, result };
        return;
      }
      const done = (): void => {
        this.busy = false;
        this.emit('message', { id, result });
        this.step();
      };
      if (this.jobMs === 0) setImmediate(done);
      else setTimeout(done, this.jobMs);
    }
  }

  terminate(): Promise<number> {
    this.terminated = true;
    return Promise.resolve(0);
  }

  unref(): void {}
}

/** The child of the quiet-loop test: one active worker of two, a hung job, one behind it. */
const QUIET_CHILD = `
import { EventEmitter } from 'node:events';
const here = ${JSON.stringify(new URL('.', import.meta.url).href)};
const { ReadPool } = await import(here + 'read-pool.ts');
const { jobOfMessage } = await import(here + 'read-job.ts');
class Worker extends EventEmitter {
  constructor(claims) { super(); this.claims = claims; queueMicrotask(() => this.emit('message', { id: -1, ready: true })); }
  postMessage(message) {
    if (this.hung) return;
    const { id, job } = jobOfMessage(message);
    if (Atomics.compareExchange(this.claims, id % this.claims.length, id, -1) !== id) {
      queueMicrotask(() => this.emit('message', { id, skipped: true }));
      return;
    }
    if (job.relative === 'hang') { this.hung = true; return; }
    setImmediate(() => this.emit('message', { id, result: { resolved: { kind: 'refused', reason: job.relative } } }));
  }
  terminate() { return Promise.resolve(0); }
  unref() {}
}
const pool = new ReadPool(2, (claims) => new Worker(claims), 2, { saturated: () => false }, 1);
const job = (relative) => ({ root: '/nowhere', relative, visibility: { hidden: false, ignore: new Set() }, refuseHardLinks: false, limitBytes: 1, keepsWireBytes: 1 });
await pool.run(job('warm'));
void pool.run(job('hang'));
const keep = setTimeout(() => { console.log('still waiting'); process.exit(0); }, 3000);
const { resolved } = await pool.run(job('q'));
console.log('answered', resolved.reason);
clearTimeout(keep);
process.exit(0);
`;

const pools: ReadPool[] = [];
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close();
});

/** `active`: workers that take jobs while none is held (the pool's default is one per core). */
function fakePool(
  max: number,
  jobMs = 0,
  saturated = false,
  active = BASE_READ_WORKERS,
): { pool: ReadPool; workers: FakeWorker[] } {
  const workers: FakeWorker[] = [];
  const start = (claims: Int32Array): ReadWorker => {
    const worker = new FakeWorker(claims, jobMs);
    workers.push(worker);
    return worker as unknown as ReadWorker;
  };
  const pool = new ReadPool(max, start, BASE_READ_WORKERS, { saturated: () => saturated }, active);
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

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (const until = Date.now() + ms; !settled && Date.now() < until;) await sleep(5);
  return settled;
}

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
    expect(workers.every((w) => w.ran.length > 0)).toBe(true);
  });

  it('runs jobs in the active workers only; a spare takes jobs while an active one is held', async () => {
    const { pool, workers } = fakePool(BASE_READ_WORKERS, 2, false, 2);
    const first = await Promise.all(Array.from({ length: 100 }, (_, i) => pool.run(job(`f${i}`))));
    expect(first.map(reasonOf)).toEqual(first.map((_, i) => `answered f${i} by worker`));
    // Every base worker started, only the first two ran jobs.
    expect(workers).toHaveLength(BASE_READ_WORKERS);
    expect(workers.map((w) => w.ran.length > 0)).toEqual([true, true, false, false]);
    // One active worker held by a hung file: the next jobs go to the other and the first spare.
    const hung = pool.run(job('hang-1'));
    await sleep(100);
    const more = await Promise.all(Array.from({ length: 100 }, (_, i) => pool.run(job(`g${i}`))));
    expect(more.map(reasonOf)).toEqual(more.map((_, i) => `answered g${i} by worker`));
    const ranG = workers.map((w) => w.ran.filter((r) => r.startsWith('g')).length);
    expect(ranG[0] === 0 || ranG[1] === 0).toBe(true);
    expect(ranG[2]).toBeGreaterThan(0);
    expect(ranG[3]).toBe(0);
    for (const worker of workers) worker.free();
    expect(reasonOf(await hung)).toBe('answered hang-1 by worker');
  });

  it('counts a job asleep waiting for its file to settle as leaving its worker room', async () => {
    const { pool, workers } = fakePool(BASE_READ_WORKERS, 0, false, 2);
    // Enough to fill both active workers, were asleep jobs counted.
    let woke = 0;
    const parked = Array.from({ length: 8 }, (_, i) =>
      pool.run(job(`park-400-${i}`)).finally(() => void woke++),
    );
    await sleep(20);
    const quick = await Promise.all(Array.from({ length: 8 }, (_, i) => pool.run(job(`q${i}`))));
    expect(quick.map(reasonOf)).toEqual(quick.map((_, i) => `answered q${i} by worker`));
    expect(woke).toBe(0);
    expect(workers.slice(2).every((w) => w.ran.length === 0)).toBe(true);
    await Promise.all(parked);
  });

  it('hands a new job to an idle worker, not to one whose only job is asleep', async () => {
    const { pool, workers } = fakePool(BASE_READ_WORKERS, 0, false, 2);
    await pool.run(job('warm'));
    const parked = pool.run(job('park-200-a'));
    await sleep(20);
    const hung = pool.run(job('hang-1'));
    await sleep(5);
    const on = (name: string): number => workers.findIndex((w) => w.ran.includes(name));
    expect(on('hang-1')).not.toBe(on('park-200-a'));
    // Its worker's thread is free when it wakes: it answers while the other file hangs.
    expect(reasonOf(await parked)).toBe('answered park-200-a by worker');
    for (const worker of workers) worker.free();
    await hung;
  });

  it('settles the jobs a lost worker had claimed, even those handed on and skipped elsewhere', async () => {
    const { pool, workers } = fakePool(BASE_READ_WORKERS, 0, false, 1);
    await pool.run(job('warm'));
    const outcome = (p: Promise<ReadJobResult>): Promise<string> =>
      p.then(reasonOf, (error: Error) => `failed: ${error.message}`);
    // One active worker claims two asleep jobs, then a hang; once held, the jobs behind the
    // first are handed to a spare, which answers "skipped": the held worker claimed them.
    const parked = [outcome(pool.run(job('park-100-a'))), outcome(pool.run(job('park-300-b')))];
    await sleep(10);
    const hung = outcome(pool.run(job('hang-1')));
    const first = workers[0] as FakeWorker;
    for (const until = Date.now() + 5000; Date.now() < until;) {
      await sleep(20);
      if (workers.slice(1).some((w) => w.skipped > 0)) break;
    }
    expect(workers.slice(1).some((w) => w.skipped > 0)).toBe(true);
    first.emit('exit', 1);
    const settled = await Promise.race([
      Promise.all([...parked, hung]),
      sleep(2000).then(() => 'still pending'),
    ]);
    // The first woke while the thread hung, so it never answered either.
    expect(settled).toEqual(Array(3).fill('failed: the read worker stopped (exit code 1)'));
  });

  it('hands on the jobs queued behind a hung one on a quiet event loop, with no other I/O', async () => {
    // In a process of its own: here the test runner's traffic keeps the loop awake. Only a
    // ref'd timer of 3 s keeps the child alive; a decision left to an unref'd immediate would
    // wait for it.
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', QUIET_CHILD],
      {
        cwd: process.cwd(),
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('answered q');
  });

  it('hands the jobs queued behind a held worker to the others; each runs once', async () => {
    const { pool, workers } = fakePool(BASE_READ_WORKERS);
    const hung = pool.run(job('hang-1'));
    // Enough jobs at once that some are queued behind the hung one.
    const fast = Array.from({ length: 4 * BASE_READ_WORKERS }, (_, i) => pool.run(job(`f${i}`)));
    const results = await Promise.all(fast);
    expect(results.map(reasonOf)).toEqual(fast.map((_, i) => `answered f${i} by worker`));
    expect(await settlesWithin(hung, 20)).toBe(false);
    const first = workers[0] as FakeWorker;
    first.free();
    expect(reasonOf(await hung)).toBe('answered hang-1 by worker');
    await sleep(20);
    // Every job ran in exactly one worker, however many it was handed to.
    const ran = workers.flatMap((w) => w.ran).sort();
    expect(ran).toEqual(['hang-1', ...fast.map((_, i) => `f${i}`)].sort());
    expect(reasonOf(await pool.run(job('after')))).toBe('answered after by worker');
  });

  it('a worker freed from a hung job skips the copies others took, and serves new jobs at once', async () => {
    const { pool, workers } = fakePool(2);
    const hung1 = pool.run(job('hang-1'));
    const f0 = pool.run(job('f0'));
    // Both workers have a job: this one queues behind hang-1 (the least busy, first found).
    const hung3 = pool.run(job('hang-3'));
    const [w1, w2] = workers as [FakeWorker, FakeWorker];
    await f0;
    // hang-3 is handed to w2 once w1 counts as held, and hangs there.
    for (const until = Date.now() + 5000; !w2.ran.includes('hang-3') && Date.now() < until;)
      await sleep(10);
    expect(w2.ran).toContain('hang-3');
    w1.free();
    expect(reasonOf(await hung1)).toBe('answered hang-1 by worker');
    // w1's own copy of hang-3 is skipped: a new job is not stuck behind it.
    const next = pool.run(job('next'));
    expect(await settlesWithin(next, 1000)).toBe(true);
    expect(w1.ran).toEqual(['hang-1', 'next']);
    w2.free();
    expect(reasonOf(await hung3)).toBe('answered hang-3 by worker');
  });

  it('grows while fewer than the base workers are free of a held job, never past max', async () => {
    const { pool, workers } = fakePool(BASE_READ_WORKERS + 2);
    const hung = Array.from({ length: BASE_READ_WORKERS + 3 }, (_, i) =>
      pool.run(job(`hang-${i}`)),
    );
    const fast = pool.run(job('fast'));
    expect(reasonOf(await fast)).toBe('answered fast by worker');
    await sleep(400);
    expect(workers).toHaveLength(BASE_READ_WORKERS + 2);
    for (let round = 0; round < 4; round++) for (const worker of workers) worker.free();
    for (const until = Date.now() + 5000; Date.now() < until;) {
      for (const worker of workers) worker.free();
      if (await settlesWithin(Promise.all(hung), 20)) break;
    }
    expect((await Promise.all(hung)).map(reasonOf)).toEqual(
      hung.map((_, i) => `answered hang-${i} by worker`),
    );
  });

  it('does not grow for jobs parked while their files settle', async () => {
    // Every base worker has jobs asleep for 400 ms (past HELD_JOB_MS), with jobs queued behind.
    const { pool, workers } = fakePool(BASE_READ_WORKERS + 16, 2);
    const parked = Array.from({ length: 3 * BASE_READ_WORKERS }, (_, i) =>
      pool.run(job(`park-400-${i}`)),
    );
    const fast = Array.from({ length: 200 }, (_, i) => pool.run(job(`f${i}`)));
    expect((await Promise.all(fast)).map(reasonOf)).toEqual(
      fast.map((_, i) => `answered f${i} by worker`),
    );
    expect((await Promise.all(parked)).map(reasonOf)).toEqual(
      parked.map((_, i) => `answered park-400-${i} by worker`),
    );
    expect(workers).toHaveLength(BASE_READ_WORKERS);
  });

  it('grows later while the process keeps every core busy, and hands jobs on meanwhile', async () => {
    const { pool, workers } = fakePool(BASE_READ_WORKERS + 4, 0, true);
    const hung = Array.from({ length: BASE_READ_WORKERS }, (_, i) => pool.run(job(`hang-${i}`)));
    const queued = pool.run(job('queued'));
    await sleep(400);
    // A job held this long on a saturated machine may only lack CPU: no worker yet.
    expect(workers).toHaveLength(BASE_READ_WORKERS);
    // Held past the longer limit: a hung file after all, so the queued job gets a new worker.
    expect(await settlesWithin(queued, 10_000)).toBe(true);
    expect(workers.length).toBeGreaterThan(BASE_READ_WORKERS);
    expect(reasonOf(await queued)).toBe('answered queued by worker');
    for (const worker of workers) worker.free();
    await Promise.all(hung);
  });

  it('stops the workers beyond the base once they have been idle a while', async () => {
    const { pool, workers } = fakePool(BASE_READ_WORKERS + 2);
    const hung = Array.from({ length: BASE_READ_WORKERS }, (_, i) => pool.run(job(`hang-${i}`)));
    const extra = pool.run(job('hang-extra'));
    for (
      const until = Date.now() + 5000;
      workers.length <= BASE_READ_WORKERS && Date.now() < until;
    )
      await sleep(10);
    expect(workers.length).toBeGreaterThan(BASE_READ_WORKERS);
    for (const until = Date.now() + 5000; Date.now() < until;) {
      for (const worker of workers) worker.free();
      if (await settlesWithin(Promise.all([...hung, extra]), 20)) break;
    }
    await Promise.all([...hung, extra]);
    for (const until = Date.now() + 15_000; pool.size > BASE_READ_WORKERS && Date.now() < until;)
      await sleep(100);
    expect(pool.size).toBe(BASE_READ_WORKERS);
    expect(workers.filter((w) => w.terminated)).toHaveLength(workers.length - BASE_READ_WORKERS);
    expect(reasonOf(await pool.run(job('again')))).toBe('answered again by worker');
  });

  it('rejects the jobs of a worker that stops, and serves the next ones with a new worker', async () => {
    const { pool, workers } = fakePool(1);
    const hung = pool.run(job('hang'));
    (workers[0] as FakeWorker).emit('exit', 1);
    await expect(hung).rejects.toThrow(/the read worker stopped \(exit code 1\)/);
    expect(reasonOf(await pool.run(job('next')))).toBe('answered next by worker');
    expect(workers).toHaveLength(2);
  });

  it('rejects what is in flight on close with PROVIDER_CLOSED', async () => {
    const { pool } = fakePool(1);
    const hung = pool.run(job('hang'));
    pool.close();
    await expect(hung).rejects.toMatchObject({ code: 'PROVIDER_CLOSED' });
  });
});
