/**
 * A remembered path's contents read by a job are cached under the record's key only when the
 * job found the record's file: a path retargeted between the record and the job (a symlink
 * pointed elsewhere) must never leave another file's bytes under this file's key.
 */
import { mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSource, sameResolution } from './file-source.js';
import { createFilesystemProvider } from './filesystem-provider.js';
import { nodeFs } from './fs-types.js';
import { PathRecord } from './path-records.js';
import { runReadJob, type ReadJob } from './read-job.js';
import type { ReadPool } from './read-pool.js';
import { resolveInRoot } from './resolve.js';

let root: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpkit-file-source-')));
  const old = (Date.now() - 60_000) / 1000;
  for (const [name, text] of [
    ['a.txt', 'AAAA'],
    ['b.txt', 'BBBB'],
  ]) {
    writeFileSync(path.join(root, name!), text!);
    utimesSync(path.join(root, name!), old, old);
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const visibility = { hidden: false, ignore: new Set<string>() };

/** A pool that runs jobs in this thread; once `retarget` is set, a job of a.txt finds b.txt. */
function pool() {
  const state = { retarget: false, jobs: 0 };
  const stub = {
    max: 1,
    run: (job: ReadJob) => {
      state.jobs++;
      const relative = state.retarget && job.relative === 'a.txt' ? 'b.txt' : job.relative;
      return runReadJob(nodeFs, { ...job, relative });
    },
    close: () => undefined,
  };
  return { state, pool: stub as unknown as ReadPool };
}

function source(readers: ReadPool): FileSource {
  return new FileSource({
    fs: nodeFs,
    within: () => ({ root, visibility }),
    watch: { coverage: () => 1, epoch: 1 },
    pool: readers,
  });
}

const textOf = async (s: FileSource): Promise<string | undefined> => {
  const outcome = await s.whole('a.txt', 1 << 20, false);
  return outcome.kind === 'ok' ? outcome.contents.text : undefined;
};

describe('FileSource with read jobs', () => {
  it('never caches a retargeted job’s bytes under the record of the path', async () => {
    const { state, pool: readers } = pool();
    const s = source(readers);
    expect(await textOf(s)).toBe('AAAA'); // resolved and read in one job: remembered, not cached
    state.retarget = true;
    const jobs = state.jobs;
    expect(await textOf(s)).toBe('AAAA');
    expect(state.jobs).toBe(jobs + 1); // the remembered path's job ran, and found b.txt
    expect(await textOf(s)).toBe('AAAA');
  });

  it('sameResolution: the real path and the version must both match', async () => {
    const resolve = (rel: string) => resolveInRoot(nodeFs, root, rel, visibility, {});
    const a = await resolve('a.txt');
    const b = await resolve('b.txt');
    if (a.kind !== 'file' || b.kind !== 'file') throw new Error('not resolved');
    const owner = {} as ConstructorParameters<typeof PathRecord>[0];
    const record = new PathRecord(owner, 'a.txt', a.real, a.stats, 'k', ['a.txt'], true, 0, 1);
    expect(sameResolution(record, a)).toBe(true);
    expect(sameResolution(record, b)).toBe(false);
    expect(sameResolution(record, { ...a, real: b.real })).toBe(false);
    expect(sameResolution(record, { ...b, real: a.real })).toBe(false);
    expect(sameResolution(record, { kind: 'missing' })).toBe(false);
  });
});

describe('cacheBytes', () => {
  it('is a whole number, 0 or more: anything else is a RangeError naming it', async () => {
    for (const cacheBytes of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => createFilesystemProvider({ root, cacheBytes })).toThrow(
        /cacheBytes must be a whole number, 0 or more/,
      );
    for (const cacheBytes of [0, 1024])
      await createFilesystemProvider({ root, cacheBytes }).close();
  });
});
