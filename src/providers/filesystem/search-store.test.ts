import {
  existsSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeIndex } from '../../search/index-file.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import { SearchCore, type SearchFile } from './search-core.js';
import { IndexStore, STALE_PARTIAL_MS } from './search-store.js';

let dir: string;
let keep: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpkit-store-')));
  keep = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-store-keep-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(keep, { recursive: true, force: true });
});

function put(rel: string, text: string, mtimeMs: number): SearchFile {
  writeFileSync(path.join(dir, rel), text);
  return { path: rel, size: Buffer.byteLength(text), mtimeMs, mimeType: 'text/plain' };
}

/** node's fs, counting the files opened. */
function counting() {
  const opened: string[] = [];
  const fs: ProviderFs = {
    ...nodeFs,
    open: (p, f) => (opened.push(path.basename(p)), nodeFs.open(p, f)),
  };
  return { fs, opened };
}

function core(fs: ProviderFs, restored?: Awaited<ReturnType<IndexStore['load']>>) {
  return new SearchCore({
    fs,
    root: dir,
    visibility: { hidden: false, ignore: new Set() },
    refuseHardLinks: false,
    maxFileBytes: 1 << 20,
    readTimeoutMs: 5_000,
    maxPhraseChecks: 10,
    restored,
  });
}

const hits = async (c: SearchCore, query: string) =>
  (await c.search({ query, limit: 10, listLimit: 0 })).hits.map((h) => h.path).sort();

describe('a saved search index', () => {
  it('starts the next run: unchanged files are not read again, changed ones are, gone ones are dropped', async () => {
    const warnings: string[] = [];
    const store = new IndexStore(
      path.join(keep, 'index.bin'),
      { root: dir, maxFileBytes: 1 << 20 },
      (w) => warnings.push(w),
    );
    const first = core(nodeFs);
    const files = [
      put('a.txt', 'alpha okapi', 1),
      put('b.txt', 'beta okapi', 1),
      put('c.txt', 'gamma okapi', 1),
    ];
    for (const f of files) first.upsert(f);
    await first.drained();
    await store.save(first.snapshot());

    const { fs, opened } = counting();
    const second = core(fs, await store.load());
    expect(await hits(second, 'okapi')).toEqual(['a.txt', 'b.txt', 'c.txt']);
    second.upsert(files[0]!);
    second.upsert(put('b.txt', 'beta zebra', 2));
    second.pruneUnseen();
    await second.drained();
    expect(opened).toEqual(['b.txt']);
    expect(await hits(second, 'okapi')).toEqual(['a.txt']);
    expect(await hits(second, 'zebra')).toEqual(['b.txt']);
    expect(second.indexed).toBe(2);
    expect(warnings).toEqual([]);
  });

  it('is not used for another folder, nor when it is not an index', async () => {
    const warnings: string[] = [];
    const file = path.join(keep, 'index.bin');
    const saved = core(nodeFs);
    await new IndexStore(file, { root: dir, maxFileBytes: 100 }, () => undefined).save(
      saved.snapshot(),
    );
    expect(
      await new IndexStore(file, { root: '/elsewhere', maxFileBytes: 100 }, (w) =>
        warnings.push(w),
      ).load(),
    ).toBeUndefined();
    expect(
      await new IndexStore(file, { root: dir, maxFileBytes: 200 }, (w) => warnings.push(w)).load(),
    ).toBeUndefined();
    writeFileSync(file, 'garbage');
    expect(
      await new IndexStore(file, { root: dir, maxFileBytes: 100 }, (w) => warnings.push(w)).load(),
    ).toBeUndefined();
    expect(warnings).toHaveLength(3);
    expect(
      await new IndexStore(
        path.join(keep, 'none.bin'),
        { root: dir, maxFileBytes: 100 },
        () => undefined,
      ).load(),
    ).toBeUndefined();
  });
});

/** Writes `rel` through a new file renamed over it, mtime `at` (s): a new inode, the same times. */
function replace(rel: string, text: string, at: number): SearchFile {
  const partial = path.join(dir, `${rel}.new`);
  writeFileSync(partial, text);
  utimesSync(partial, at, at);
  renameSync(partial, path.join(dir, rel));
  return versionOf(rel);
}

/** The file's version as the listing records it (file-index.ts). */
function versionOf(rel: string): SearchFile {
  const { size, mtimeMs, ino, ctimeMs } = statSync(path.join(dir, rel));
  return { path: rel, size, mtimeMs, ino, ctimeMs, mimeType: 'text/plain' };
}

describe('the version a saved index records', () => {
  it('has the inode: a file replaced with the same size and mtime is read again', async () => {
    const store = new IndexStore(
      path.join(keep, 'index.bin'),
      { root: dir, maxFileBytes: 1 << 20 },
      () => undefined,
    );
    const first = core(nodeFs);
    first.upsert(replace('a.txt', 'alpha okapi', 1_000));
    first.upsert(replace('b.txt', 'beta okapi', 1_000));
    await first.drained();
    await store.save(first.snapshot());

    const { fs, opened } = counting();
    const second = core(fs, await store.load());
    const before = versionOf('a.txt');
    const now = replace('a.txt', 'alpha zebra', 1_000);
    expect([now.size, now.mtimeMs, now.ino === before.ino]).toEqual([
      before.size,
      before.mtimeMs,
      false,
    ]);
    second.upsert(now);
    second.upsert(versionOf('b.txt'));
    second.pruneUnseen();
    await second.drained();
    expect(opened).toEqual(['a.txt']);
    expect(await hits(second, 'zebra')).toEqual(['a.txt']);
    expect(await hits(second, 'okapi')).toEqual(['b.txt']);
  });

  it('is of the current format: an index saved without inodes is built anew', async () => {
    const warnings: string[] = [];
    const file = path.join(keep, 'index.bin');
    const old = core(nodeFs);
    old.upsert(replace('a.txt', 'alpha', 1_000));
    await old.drained();
    const versions = [['a.txt', '5:1000000:text/plain']];
    writeFileSync(file, encodeIndex(old.index, { root: dir, maxFileBytes: 1 << 20, versions }));
    const store = new IndexStore(file, { root: dir, maxFileBytes: 1 << 20 }, (w) =>
      warnings.push(w),
    );
    expect(await store.load()).toBeUndefined();
    expect(warnings).toEqual([expect.stringContaining('older format: built anew')]);
  });
});

describe('when the index is saved', () => {
  afterEach(() => void vi.useRealTimers());

  it('a while after a change, at most once per interval, and at once on flush', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const store = new IndexStore(
      path.join(keep, 'index.bin'),
      { root: dir, maxFileBytes: 1 << 20 },
      () => undefined,
      { quietMs: 100, minIntervalMs: 1_000 },
    );
    const c = core(nodeFs);
    let saves = 0;
    const take = () => (saves++, c.snapshot());
    store.saveSoon(take);
    await vi.advanceTimersByTimeAsync(60);
    // A change meanwhile does not put the save off.
    store.saveSoon(take);
    await vi.advanceTimersByTimeAsync(60);
    expect(saves).toBe(1);
    await store.flush();
    store.saveSoon(take);
    await vi.advanceTimersByTimeAsync(500);
    expect(saves).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(saves).toBe(2);
    // Closing saves what is left without waiting for the interval, once the save under way ended.
    store.saveSoon(take);
    await store.flush();
    expect(saves).toBe(3);
    expect(readdirSync(keep)).toEqual(['index.bin']);
  });
});

describe('partial files of saves cut short', () => {
  it('are removed at load once old, whatever their pid; a fresh one (a save under way) is left', async () => {
    const file = path.join(keep, 'index.bin');
    const old = `${file}.${process.pid}-0a1b2c.tmp`;
    const fresh = `${file}.${process.pid}-3d4e5f.tmp`;
    const legacy = `${file}.${process.ppid}.tmp`;
    for (const name of [old, fresh, legacy]) writeFileSync(name, 'partial');
    const hourAgo = (Date.now() - STALE_PARTIAL_MS - 60_000) / 1000;
    utimesSync(old, hourAgo, hourAgo);
    utimesSync(legacy, hourAgo, hourAgo);
    const store = new IndexStore(file, { root: dir, maxFileBytes: 1 << 20 }, () => undefined);
    expect(await store.load()).toBeUndefined();
    expect(existsSync(old)).toBe(false);
    expect(existsSync(legacy)).toBe(false);
    // Same pid as this process (another instance here, or a container's): still left alone.
    expect(existsSync(fresh)).toBe(true);
  });

  it('are named apart for stores of one file in one process (no save undoes another)', async () => {
    const file = path.join(keep, 'index.bin');
    const made = { root: dir, maxFileBytes: 1 << 20 };
    const c = core(nodeFs);
    c.upsert(put('a.txt', 'alpha words', 1));
    await c.drained();
    const warnings: string[] = [];
    const stores = Array.from(
      { length: 8 },
      () => new IndexStore(file, made, (w) => warnings.push(w)),
    );
    await Promise.all(stores.map((store) => store.save(c.snapshot())));
    expect(warnings).toEqual([]);
    expect(readdirSync(keep)).toEqual(['index.bin']);
  });
});

describe('a close', () => {
  it('at half of a first build saves the half indexed; the next start reads only the rest', async () => {
    const file = path.join(keep, 'index.bin');
    const made = { root: dir, maxFileBytes: 1 << 20 };
    // Reads of `late*` files do not end before the close: the build stops at half.
    const hanging: ProviderFs = {
      ...nodeFs,
      open: (p, f) =>
        path.basename(p).startsWith('late') ? new Promise(() => undefined) : nodeFs.open(p, f),
    };
    const names = ['early0', 'early1', 'early2', 'late0', 'late1', 'late2'];
    const files = names.map((name) => put(`${name}.txt`, `text of ${name}`, 1));
    const c = core(hanging);
    for (const f of files) c.upsert(f);
    await vi.waitFor(() => expect(c.indexed).toBe(3));
    expect(c.unsaved).toBe(true);
    // No idle save came (the build did not end): the close alone saves what is indexed.
    const store = new IndexStore(file, made, () => undefined);
    await store.flush(c.unsaved ? () => c.snapshot() : undefined);
    expect(c.unsaved).toBe(false);
    const restored = await new IndexStore(file, made, () => undefined).load();
    expect([...(restored?.versions.keys() ?? [])].sort()).toEqual([
      'early0.txt',
      'early1.txt',
      'early2.txt',
    ]);
    const { fs, opened } = counting();
    const again = core(fs, restored);
    for (const f of files) again.upsert(f);
    await again.drained();
    expect(opened.sort()).toEqual(['late0.txt', 'late1.txt', 'late2.txt']);
    expect(again.indexed).toBe(6);
  });
});
