/**
 * The search index on a mount where some files hang: the other files are still indexed (the
 * read workers grow past those held, a job's time limit counts from when a worker takes it), a
 * stalled path is not read again while its read hangs, snippets never pile up reads of hung
 * files, and a read that timed out or failed is tried again later.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nodeFs, type ProviderFs } from './fs-types.js';
import { jobOfMessage, runReadJob, type JobMessage } from './read-job.js';
import { ReadPool, type Answer, type ReadWorker } from './read-pool.js';
import { SearchCore, type SearchFile } from './search-core.js';
import { maxDirectStalls, searchReadPool } from './search-stalls.js';

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpkit-search-stalls-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Written a minute ago: no read waits for the file to settle. */
function put(rel: string, text: string): SearchFile {
  const abs = path.join(dir, rel);
  writeFileSync(abs, text);
  const then = (Date.now() - 60_000) / 1000;
  utimesSync(abs, then, then);
  return { path: rel, size: Buffer.byteLength(text), mtimeMs: 1, mimeType: 'text/plain' };
}

/**
 * Stand-in read workers that run each job they claim with node's fs (in this thread), one after
 * another, `jobMs` each; a job of a `hang*` path never ends. Counts the jobs run by path.
 */
function standIns(jobMs = 0) {
  const ran = new Map<string, number>();
  const start = (claims: Int32Array): ReadWorker => {
    const worker = new EventEmitter();
    const inbox: JobMessage[] = [];
    let busy = false;
    const step = (): void => {
      while (!busy) {
        const next = inbox.shift();
        if (!next) return;
        const { id, job } = next;
        if (Atomics.compareExchange(claims, id % claims.length, id, -1) !== id) {
          queueMicrotask(() => worker.emit('message', { id, skipped: true } satisfies Answer));
          continue;
        }
        ran.set(job.relative, (ran.get(job.relative) ?? 0) + 1);
        busy = true;
        if (job.relative.startsWith('hang')) return;
        setTimeout(() => {
          void runReadJob(nodeFs, job).then((result) => {
            busy = false;
            worker.emit('message', { id, result } satisfies Answer);
            step();
          });
        }, jobMs);
      }
    };
    queueMicrotask(() => worker.emit('message', { id: -1, ready: true } satisfies Answer));
    return Object.assign(worker, {
      postMessage: (message: string) => (inbox.push(jobOfMessage(message)), step()),
      terminate: () => Promise.resolve(0),
      unref: () => undefined,
    }) as unknown as ReadWorker;
  };
  return { ran, start };
}

function core(options: {
  fs?: ProviderFs;
  readers?: ReadPool;
  readTimeoutMs: number;
  retryMs?: number;
}) {
  return new SearchCore({
    fs: options.fs ?? nodeFs,
    root: dir,
    visibility: { hidden: false, ignore: new Set() },
    refuseHardLinks: false,
    maxFileBytes: 1 << 20,
    readTimeoutMs: options.readTimeoutMs,
    maxPhraseChecks: 10,
    retryMs: options.retryMs ?? 60_000,
    ...(options.readers ? { readers: options.readers } : {}),
  });
}

describe('a build on a mount where files hang', () => {
  it('indexes every other file, and reads a hung file once while its read hangs', async () => {
    const { ran, start } = standIns();
    const pool = searchReadPool(start);
    const c = core({ readers: pool, readTimeoutMs: 400 });
    try {
      // The first 4 files are read directly (a small queue); the read workers take the next
      // ones once 256 wait: the hung files first, so that they hold the first two workers.
      const files = Array.from({ length: 300 }, (_, i) =>
        put(`f${i}.txt`, `file ${i} zqword${i}\n`),
      );
      files.splice(4, 0, put('hang1.txt', 'zqhung one'), put('hang2.txt', 'zqhung two'));
      for (const file of files) c.upsert(file);
      await c.drained();
      expect(c.indexed).toBe(300);
      const found = await c.search({ query: 'zqword17', limit: 5, listLimit: 5 });
      expect(found.hits[0]).toMatchObject({ path: 'f17.txt', line: 1 });
      expect(ran.get('hang1.txt')).toBe(1);
      expect(ran.get('hang2.txt')).toBe(1);
      // Listed again meanwhile (a walk): a path whose read is stalled is not read again (a
      // direct read would succeed here: the stand-ins alone hang).
      c.upsert({ ...put('hang1.txt', 'zqhung one!'), mtimeMs: 2 });
      await c.drained();
      expect(c.indexed).toBe(300);
      expect((await c.search({ query: 'zqhung', limit: 5, listLimit: 5 })).total).toBe(0);
    } finally {
      pool.close();
    }
  });

  it('counts a job’s time limit from when a worker takes it, not while it waits', async () => {
    // One worker, 40 ms a job, 16 jobs in flight: the last waits ~640 ms, beyond the limit
    // (which leaves a job itself room for a loaded machine).
    const { start } = standIns(40);
    const pool = new ReadPool(1, start, 1);
    const c = core({ readers: pool, readTimeoutMs: 500 });
    try {
      for (let i = 0; i < 270; i++) c.upsert(put(`f${i}.txt`, `file ${i}\n`));
      await c.drained();
      expect(c.indexed).toBe(270);
    } finally {
      pool.close();
    }
  });
});

/** node's fs, whose opens of files hang once `hang` is set (counted). */
function hangingFs() {
  const state = { hang: false, opens: 0 };
  const fs: ProviderFs = {
    ...nodeFs,
    open: (p, flags) => {
      if (!state.hang) return nodeFs.open(p, flags);
      state.opens++;
      return new Promise(() => undefined);
    },
  };
  return { fs, state };
}

describe('snippet reads of hung files', () => {
  it('share one read per path and stop once a few are stalled', async () => {
    const { fs, state } = hangingFs();
    const c = core({ fs, readTimeoutMs: 500, retryMs: 20 });
    for (let i = 0; i < 20; i++) c.upsert(put(`s${i}.txt`, `zqsnippet ${i}\n`));
    // (A read slowed past its limit by a loaded machine is read again soon.)
    await vi.waitFor(() => expect(c.indexed).toBe(20), { timeout: 5_000 });
    state.hang = true;
    const ask = () => c.search({ query: 'zqsnippet', limit: 20, listLimit: 20 });
    const answers = await Promise.all([ask(), ask(), ask(), ask()]);
    for (const answer of answers) expect(answer.hits).toHaveLength(20);
    // The first reads of one search (8 at once) and none after: not 4 searches x 20 files.
    expect(state.opens).toBeLessThanOrEqual(8);
    expect((await ask()).hits).toHaveLength(20);
    expect(state.opens).toBeLessThanOrEqual(8);
  });
});

describe('a failed read', () => {
  it('is not indexed by name only but read again later', async () => {
    let failures = 1;
    const fs: ProviderFs = {
      ...nodeFs,
      open: (p, flags) => {
        if (p.endsWith('flaky.txt') && failures-- > 0) {
          return Promise.reject(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
        }
        return nodeFs.open(p, flags);
      },
    };
    const c = core({ fs, readTimeoutMs: 5_000, retryMs: 20 });
    c.upsert(put('flaky.txt', 'zqflakyword\n'));
    c.upsert(put('ok.txt', 'fine\n'));
    await c.drained();
    await vi.waitFor(async () => {
      const answer = await c.search({ query: 'zqflakyword', limit: 5, listLimit: 5 });
      expect(answer.hits.map((h) => h.path)).toEqual(['flaky.txt']);
      expect(c.indexed).toBe(2);
    });
  });
});

describe('maxDirectStalls', () => {
  it("is a quarter of libuv's pool, from 1 to 4", () => {
    const was = process.env['UV_THREADPOOL_SIZE'];
    try {
      const at = (size: string | undefined): number => {
        if (size === undefined) delete process.env['UV_THREADPOOL_SIZE'];
        else process.env['UV_THREADPOOL_SIZE'] = size;
        return maxDirectStalls();
      };
      expect([at(undefined), at('4'), at('8'), at('12'), at('32'), at('128'), at('x')]).toEqual([
        1, 1, 2, 3, 4, 4, 1,
      ]);
    } finally {
      if (was === undefined) delete process.env['UV_THREADPOOL_SIZE'];
      else process.env['UV_THREADPOOL_SIZE'] = was;
    }
  });
});
