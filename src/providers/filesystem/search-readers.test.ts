import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mimeFromName } from '../../content/mime.js';
import { nodeFs } from './fs-types.js';
import { ReadPool } from './read-pool.js';
import { SearchCore, type SearchFile } from './search-core.js';

// A build large enough to go through the read workers answers as one read directly, with the
// same guards: a symlink out of the folder and a hidden file are indexed by name only.
let dir: string;
let outside: string;
const files: SearchFile[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-search-readers-'));
  outside = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-search-readers-out-'));
  const put = (rel: string, body: string): void => {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, body);
    files.push({ path: rel, size: Buffer.byteLength(body), mtimeMs: 1, mimeType: 'text/plain' });
  };
  for (let i = 0; i < 400; i++) put(`d${i % 7}/f${i}.txt`, `file ${i} word${i % 13} common\n`);
  writeFileSync(path.join(outside, 'secret.txt'), 'zqsecretword\n');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'leak.txt'));
  files.push({ path: 'leak.txt', size: 13, mtimeMs: 1, mimeType: mimeFromName('leak.txt')! });
  put('.hidden/h.txt', 'zqhiddenword\n');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function core(readers?: ReadPool): SearchCore {
  return new SearchCore({
    fs: nodeFs,
    root: realpathSync(dir),
    visibility: { hidden: false, ignore: new Set() },
    refuseHardLinks: false,
    maxFileBytes: 1 << 20,
    readTimeoutMs: 30_000,
    maxPhraseChecks: 100,
    ...(readers ? { readers } : {}),
  });
}

const found = async (c: SearchCore, query: string): Promise<string[]> =>
  (await c.search({ query, limit: 1000, listLimit: 1000 })).hits.map((h) => h.path).sort();

describe('SearchCore with read workers', () => {
  it('indexes a large batch through them as it would directly, with the same guards', async () => {
    const pool = new ReadPool(2);
    const run = pool.run.bind(pool);
    let jobs = 0;
    pool.run = (job) => (jobs++, run(job));
    const pooled = core(pool);
    const direct = core();
    try {
      pooled.replaceAll(files);
      direct.replaceAll(files);
      await Promise.all([pooled.drained(), direct.drained()]);
      expect(jobs).toBeGreaterThan(100);
      expect(pooled.indexed).toBe(direct.indexed);
      for (const query of ['word7', 'common', 'file', 'zqsecretword', 'zqhiddenword', 'leak']) {
        expect(await found(pooled, query)).toEqual(await found(direct, query));
      }
      expect(await found(pooled, 'word7')).toHaveLength(31);
      expect(await found(pooled, 'zqsecretword')).toEqual([]);
      expect(await found(pooled, 'zqhiddenword')).toEqual([]);
      // Drained: the workers' threads are ended.
      expect(pool.size).toBe(0);
    } finally {
      pool.close();
    }
  }, 60_000);
});
