import { mkdtemp, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesystemProvider } from './filesystem-provider.js';
import { FolderSearch } from './folder-search.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-search-versions-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes `name` with mtime `at` (s), in place or through a new file renamed over it. */
async function put(name: string, text: string, at: number, how: 'in place' | 'renamed') {
  const target = join(dir, name);
  const file = how === 'renamed' ? `${target}.new` : target;
  await writeFile(file, text);
  await utimes(file, at, at);
  if (how === 'renamed') await rename(file, target);
}

const found = async (index: FolderSearch, query: string) =>
  (await index.search({ query, limit: 10 })).hits.map((h) => h.path);

describe('a file rewritten with the same size and mtime', () => {
  for (const how of ['in place', 'renamed'] as const) {
    it(`is indexed again when a later walk sees it (${how}: ctime, inode)`, async () => {
      await put('a.txt', 'alpha okapi', 1_000, 'in place');
      await put('b.txt', 'beta okapi', 1_000, 'in place');
      // Unwatched and always stale: each search walks again and waits for its changes.
      const provider = createFilesystemProvider({ root: dir, watch: false, rescanMs: 0 });
      const index = new FolderSearch(provider);
      provider.attach(index);
      try {
        expect((await found(index, 'okapi')).sort()).toEqual(['a.txt', 'b.txt']);
        const before = await stat(join(dir, 'a.txt'));
        await put('a.txt', 'alpha zebra', 1_000, how);
        const after = await stat(join(dir, 'a.txt'));
        expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
        expect(await found(index, 'zebra')).toEqual(['a.txt']);
        expect(await found(index, 'okapi')).toEqual(['b.txt']);
      } finally {
        await index.close();
        provider.close();
      }
    });
  }
});
