/**
 * A real ReadPool over a temp folder: a job answers as the same guards answer on the main thread
 * (resolveInRoot, then readFileContents), errors cross with their code, close() fails what is in
 * flight, and the pool grows past its base workers only while every one is held by a slow file.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFs, type ProviderFs } from './fs-types.js';
import type { Visibility } from './paths.js';
import { readFileContents } from './read-file.js';
import { jobMessage, jobOfMessage, type ReadJob, type ReadJobResult } from './read-job.js';
import { BASE_READ_WORKERS, DEFAULT_READ_WORKERS, ReadPool, readPoolOf } from './read-pool.js';
import { resolveInRoot } from './resolve.js';

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const MARKER = 'MCPKIT-POOL-OUTSIDE-3c9e';
/** A text whose JSON escapes every kind of byte, behind a byte order mark the decoder drops. */
const BOM_TEXT = '\ufeffsay "hi" \\ bye\n\t\r\b\f\u0001\u001f\u007f é 漢 😀 end';
const VISIBILITY: Visibility = { hidden: false, ignore: new Set(['node_modules']) };
/** A settle wait that keeps a worker on its job (a future mtime always waits the whole of it). */
const SLOW_SETTLE_MS = 1500;

let base: string;
let root: string;
const pools: ReadPool[] = [];

/** With every base worker active (the default is one per core), whatever the machine. */
function poolOf(max: number): ReadPool {
  const pool = new ReadPool(max, undefined, undefined, undefined, BASE_READ_WORKERS);
  pools.push(pool);
  return pool;
}

function jobOf(relative: string, more: Partial<ReadJob> = {}): ReadJob {
  return {
    root,
    relative,
    visibility: VISIBILITY,
    refuseHardLinks: false,
    limitBytes: 1024 * 1024,
    keepsWireBytes: 1024 * 1024,
    settleMs: 0,
    ...more,
  };
}

/** Waits until `check` holds, polling; fails after a generous while. */
async function eventually(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The fields of stats that name a file version (atime moves with reads). */
function versionOf(stats: { dev: number; ino: number; size: number; mtimeMs: number }) {
  const { dev, ino, size, mtimeMs } = stats;
  return { dev, ino, size, mtimeMs };
}

/** What the guards answer for `job` on the main thread, over node's fs. */
async function onMainThread(job: ReadJob): Promise<ReadJobResult> {
  const fs: ProviderFs = { ...nodeFs, settleMs: 0 };
  const within = { root, visibility: job.visibility, refuseHardLinks: job.refuseHardLinks };
  const resolved = await resolveInRoot(fs, job.root, job.relative, job.visibility, within);
  if (resolved.kind !== 'file') return { resolved };
  const outcome = await readFileContents(fs, resolved.real, job.relative, job.limitBytes, within);
  return { resolved, outcome };
}

/** A result with its stats reduced to the version, to compare across threads. */
function comparable(result: ReadJobResult): unknown {
  const { resolved, outcome } = result;
  return {
    resolved:
      resolved.kind === 'file'
        ? { kind: 'file', real: resolved.real, stats: versionOf(resolved.stats) }
        : resolved,
    outcome:
      outcome?.kind === 'ok'
        ? { ...outcome, version: outcome.version && versionOf(outcome.version) }
        : outcome,
  };
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-read-pool-')));
  root = join(base, 'root');
  await mkdir(join(root, 'notes'), { recursive: true });
  await mkdir(join(root, 'node_modules'), { recursive: true });
  await writeFile(join(root, 'notes', 'a.md'), '# A\n\nhello\n');
  await writeFile(join(root, 'notes', 'bom.txt'), BOM_TEXT);
  await writeFile(join(root, 'img.png'), PNG);
  await writeFile(join(root, '.env'), 'SECRET=1');
  await writeFile(join(root, 'node_modules', 'x.js'), 'x');
  await writeFile(join(root, 'big.txt'), 'b'.repeat(4000));
  await writeFile(join(base, 'outside.txt'), MARKER);
  await symlink(join(base, 'outside.txt'), join(root, 'out.txt'));
  await symlink(join(root, 'notes', 'a.md'), join(root, 'alias.md'));
  await symlink(join(root, 'loop-b'), join(root, 'loop-a'));
  await symlink(join(root, 'loop-a'), join(root, 'loop-b'));
  await writeFile(join(root, 'slow.txt'), 'slow');
  // In the future: every settle wait is the whole settleMs, however late the job runs.
  const later = new Date(Date.now() + 3600_000);
  await utimes(join(root, 'slow.txt'), later, later);
});

afterAll(async () => {
  for (const pool of pools) pool.close();
  await rm(base, { recursive: true, force: true });
});

describe('ReadPool: one job resolves and reads a path in a worker', () => {
  let shared: ReadPool | undefined;

  it('reads a text file and a binary, with stats that are Stats again', async () => {
    const pool = poolOf(2);
    const text = await pool.run(jobOf('notes/a.md'));
    expect(text.resolved.kind).toBe('file');
    if (text.resolved.kind !== 'file') return;
    expect(text.resolved.real).toBe(join(root, 'notes', 'a.md'));
    expect(text.resolved.stats.isFile()).toBe(true);
    expect(text.outcome).toMatchObject({
      kind: 'ok',
      contents: { mimeType: 'text/markdown', text: '# A\n\nhello\n', size: 11 },
    });
    if (text.outcome?.kind !== 'ok') return;
    expect(text.outcome.version?.isFile()).toBe(true);
    expect(text.outcome.version?.isDirectory()).toBe(false);
    expect(text.outcome.contents.blob).toBeUndefined();

    const binary = await pool.run(jobOf('img.png'));
    expect(binary.outcome).toMatchObject({
      kind: 'ok',
      contents: { mimeType: 'image/png', blob: PNG.toString('base64'), size: PNG.length },
    });
    if (binary.outcome?.kind === 'ok') expect(binary.outcome.contents.text).toBeUndefined();
    expect(binary.resolved.kind === 'file' && binary.resolved.stats.isFile()).toBe(true);
  });

  it.each([
    ['notes/a.md'],
    ['img.png'],
    ['alias.md'],
    ['missing.md'],
    ['notes'],
    ['.env'],
    ['node_modules/x.js'],
    ['../outside.txt'],
    ['notes/../../outside.txt'],
    ['out.txt'],
    ['loop-a'],
    ['/etc/passwd'],
    ['a\\..\\b'],
    ['a\0b'],
  ])('%j answers as the guards answer on the main thread', async (relative) => {
    shared ??= poolOf(2);
    const pool = shared;
    const job = jobOf(relative);
    const pooled = await pool.run(job);
    expect(comparable(pooled)).toEqual(comparable(await onMainThread(job)));
    expect(JSON.stringify(pooled)).not.toContain(MARKER);
  });

  it('sizes a text as its JSON string, escapes counted, the byte order mark left out', async () => {
    const pool = poolOf(2);
    for (const result of [
      await pool.run(jobOf('notes/bom.txt')),
      await onMainThread(jobOf('notes/bom.txt')),
    ]) {
      const contents = result.outcome?.kind === 'ok' ? result.outcome.contents : undefined;
      expect(contents?.text).toBe(BOM_TEXT.slice(1));
      expect(contents?.wireBytes).toBe(Buffer.byteLength(JSON.stringify(BOM_TEXT.slice(1))));
    }
  });

  it('answers missing and refused paths without contents', async () => {
    const pool = poolOf(2);
    expect(await pool.run(jobOf('missing.md'))).toEqual({ resolved: { kind: 'missing' } });
    expect(await pool.run(jobOf('.env'))).toEqual({ resolved: { kind: 'missing' } });
    expect((await pool.run(jobOf('out.txt'))).resolved).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/outside the served folder/),
    });
    expect((await pool.run(jobOf('../outside.txt'))).resolved).toMatchObject({
      kind: 'refused',
    });
  });

  it('only resolves a file that the cache could not keep, or over the limit', async () => {
    const pool = poolOf(2);
    for (const job of [
      jobOf('big.txt', { keepsWireBytes: 1000 }),
      jobOf('big.txt', { limitBytes: 1000 }),
      jobOf('big.txt', { keepsWireBytes: -1 }),
    ]) {
      const result = await pool.run(job);
      expect(result.outcome).toBeUndefined();
      expect(result.resolved.kind === 'file' && result.resolved.stats.size).toBe(4000);
    }
    const whole = await pool.run(jobOf('big.txt', { keepsWireBytes: 5000 }));
    expect(whole.outcome?.kind).toBe('ok');
  });

  it('rejects with the error a job threw, its message and code, as the main thread would', async () => {
    const pool = poolOf(2);
    const job = jobOf('notes/a.md', { root: `${root}\0x` });
    const main = await onMainThread(job).then(
      () => undefined,
      (error: unknown) => error as Error & { code?: string },
    );
    expect(main?.code).toBe('ERR_INVALID_ARG_VALUE');
    const error = await pool.run(job).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(error).toBeInstanceOf(Error);
    expect(error?.message).toBe(main?.message);
    expect(error?.message).toMatch(/^cannot resolve the path: ERR_INVALID_ARG_VALUE$/);
    expect(error?.code).toBe('ERR_INVALID_ARG_VALUE');
    // The worker still serves.
    expect((await pool.run(jobOf('notes/a.md'))).outcome?.kind).toBe('ok');
  });

  it('close() fails a job in flight and every waiting one; the pool serves again afterwards', async () => {
    const pool = poolOf(1);
    const slow = pool.run(jobOf('slow.txt', { settleMs: SLOW_SETTLE_MS }));
    const waiting = pool.run(jobOf('notes/a.md'));
    await eventually(() => pool.size === 1, 'a worker started');
    pool.close();
    await expect(slow).rejects.toThrow(/the read pool was closed/);
    await expect(waiting).rejects.toThrow(/the read pool was closed/);
    expect(pool.size).toBe(0);
    const again = await pool.run(jobOf('notes/a.md'));
    expect(again.outcome).toMatchObject({ kind: 'ok', contents: { text: '# A\n\nhello\n' } });
    expect(pool.size).toBe(1);
  });

  it('a job run after close() never goes to a closed worker whose answer was on its way', async () => {
    const pool = poolOf(1);
    await pool.run(jobOf('notes/a.md')); // the worker is up
    const early = pool.run(jobOf('notes/a.md'));
    // Blocks the event loop while the worker answers: the answer waits, delivered after close().
    const until = Date.now() + 300;
    while (Date.now() < until);
    pool.close();
    await expect(early).rejects.toThrow(/the read pool was closed/);
    const [next, waiting] = await Promise.all([
      pool.run(jobOf('notes/a.md')),
      pool.run(jobOf('img.png')),
    ]);
    expect(next.outcome?.kind).toBe('ok');
    expect(waiting.outcome).toMatchObject({ kind: 'ok', contents: { mimeType: 'image/png' } });
  });
});

describe('readPoolOf', () => {
  it('is no pool for 0, DEFAULT_READ_WORKERS by default, else the number asked', () => {
    expect(readPoolOf(0)).toBeUndefined();
    expect(DEFAULT_READ_WORKERS).toBe(BASE_READ_WORKERS + 16);
    expect(readPoolOf(undefined)?.max).toBe(DEFAULT_READ_WORKERS);
    expect(readPoolOf(2)?.max).toBe(2);
    expect(readPoolOf(1)?.size).toBe(0); // workers start when used
  });

  it.each([[-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])(
    '%d throws a RangeError naming readWorkers',
    (n) => {
      expect(() => readPoolOf(n)).toThrow(RangeError);
      expect(() => readPoolOf(n)).toThrow(/readWorkers/);
    },
  );
});

describe('ReadPool: growth', () => {
  // Growth for workers held by hung files is tested with stand-in workers
  // (read-pool-scheduling.test.ts) and over a FUSE mount whose files never answer
  // (test/e2e/serve-hung-file.test.ts): a real worker cannot be held here without one.
  it('does not grow for jobs waiting for their files to settle: their workers run others meanwhile', async () => {
    const pool = poolOf(BASE_READ_WORKERS + 4);
    let settled = 0;
    const waiting = Array.from({ length: 2 * BASE_READ_WORKERS }, () =>
      pool.run(jobOf('slow.txt', { settleMs: SLOW_SETTLE_MS })).finally(() => void settled++),
    );
    const quick = await Promise.all(
      Array.from({ length: 4 * BASE_READ_WORKERS }, () => pool.run(jobOf('notes/a.md'))),
    );
    for (const result of quick) expect(result.outcome?.kind).toBe('ok');
    // The quick jobs were answered while every worker had one waiting for its file.
    expect(settled).toBe(0);
    for (const result of await Promise.all(waiting)) expect(result.outcome?.kind).toBe('ok');
    expect(pool.size).toBe(BASE_READ_WORKERS);
  });

  it('does not grow while a worker is free: jobs one after another keep the base workers', async () => {
    const pool = poolOf(BASE_READ_WORKERS + 4);
    const held = Array.from({ length: BASE_READ_WORKERS - 1 }, () =>
      pool.run(jobOf('slow.txt', { settleMs: SLOW_SETTLE_MS })),
    );
    for (let i = 0; i < 5; i++) {
      expect((await pool.run(jobOf('notes/a.md'))).outcome?.kind).toBe('ok');
      expect(pool.size).toBeLessThanOrEqual(BASE_READ_WORKERS);
    }
    await Promise.all(held);
    expect(pool.size).toBe(BASE_READ_WORKERS);
  });

  it('does not grow when only the main thread was busy: answers that arrived meanwhile count first', async () => {
    const pool = poolOf(DEFAULT_READ_WORKERS);
    // The base workers started and warm (one job each: no job waits while they boot).
    await Promise.all(
      Array.from({ length: BASE_READ_WORKERS }, () => pool.run(jobOf('notes/a.md'))),
    );
    expect(pool.size).toBe(BASE_READ_WORKERS);
    // Quick jobs, more than the base workers are handed at once; then the main thread is blocked
    // well past the hold time. The workers answered long before it is free again.
    const jobs = Array.from({ length: 40 }, () => pool.run(jobOf('notes/a.md')));
    const blocked = new Int32Array(new SharedArrayBuffer(4));
    Atomics.wait(blocked, 0, 0, 600);
    for (const result of await Promise.all(jobs)) expect(result.outcome?.kind).toBe('ok');
    expect(pool.size).toBe(BASE_READ_WORKERS);
  });

  it('never starts more than max workers, even below the base', async () => {
    const pool = poolOf(2);
    const jobs = Array.from({ length: 5 }, () =>
      pool.run(jobOf('slow.txt', { settleMs: SLOW_SETTLE_MS / 3 })),
    );
    let largest = 0;
    let done = false;
    const all = Promise.all(jobs).finally(() => (done = true));
    await eventually(
      () => {
        largest = Math.max(largest, pool.size);
        return done;
      },
      'every job done',
      60_000,
    );
    await all;
    expect(largest).toBe(2);
  });
});

describe('jobMessage', () => {
  it('carries every field of a job to the worker and back, limits without end too', () => {
    const jobs: ReadJob[] = [
      jobOf('notes/a.md'),
      {
        root: '/srv/a "quoted" \\ root',
        relative: 'é/漢/😀/a\0b\n.txt',
        visibility: { hidden: true, ignore: new Set(['node_modules', '.git', '']) },
        refuseHardLinks: true,
        limitBytes: Number.POSITIVE_INFINITY,
        keepsWireBytes: -1,
        known: { mimeType: 'text/markdown', size: 0 },
        settleMs: 0,
      },
      {
        root: '/r',
        relative: 'x',
        visibility: { hidden: false, ignore: new Set() },
        refuseHardLinks: false,
        limitBytes: 0,
        keepsWireBytes: Number.POSITIVE_INFINITY,
      },
    ];
    for (const [n, job] of jobs.entries()) {
      const id = [0, 2 ** 31 - 1, 7][n] as number;
      const message = jobMessage(id, job);
      expect(typeof message).toBe('string');
      expect(jobOfMessage(message)).toEqual({ id, job });
    }
  });
});
