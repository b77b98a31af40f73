// PathRecords on real files: what a remembered resolution costs, what drops it, and what it never
// trusts. The watch is a stand-in here, so that "the event was not delivered yet" is exact.
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFs, type ProviderFs } from './fs-types.js';
import { foldersAbove, PathRecord, PathRecords, type WatchCoverage } from './path-records.js';
import type { Containment } from './resolve.js';

let base: string;
let root: string;
let within: Containment;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-path-records-')));
  root = join(base, 'root');
  await mkdir(join(root, 'a', 'b'), { recursive: true });
  await writeFile(join(root, 'a', 'b', 'c.md'), 'c');
  await writeFile(join(root, 'a', 'd.md'), 'd');
  await writeFile(join(root, 'e.md'), 'e');
  await writeFile(join(base, 'secret.txt'), 'outside');
  await symlink(join(root, 'a', 'd.md'), join(root, 'link.md'));
  within = { root, visibility: { hidden: false, ignore: new Set() } };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** node:fs counting realpath and stat calls. */
function countingFs(): ProviderFs & { calls: { realpath: number; stat: number } } {
  const calls = { realpath: 0, stat: 0 };
  return {
    ...nodeFs,
    calls,
    realpath: (p) => (calls.realpath++, nodeFs.realpath(p)),
    stat: (p) => (calls.stat++, nodeFs.stat(p)),
  };
}

/** A watch that covers every folder until `lose()` moves its epoch; `covering: false` covers none. */
function stubWatch(covering = true): WatchCoverage & { lose(): void } {
  let epoch = 0;
  return {
    coverage: () => (covering ? epoch : undefined),
    get epoch() {
      return epoch;
    },
    lose: () => void epoch++,
  };
}

function recordsOf(
  fs: ProviderFs,
  watch: WatchCoverage,
  extra: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): PathRecords {
  return new PathRecords({ fs, within: () => within, watch, ...extra });
}

describe('PathRecords: resolve once', () => {
  it('a covered path without symlinks is served from memory: no realpath, no stat', async () => {
    const fs = countingFs();
    const records = recordsOf(fs, stubWatch());
    const first = await records.resolve('a/b/c.md');
    expect(first).toBeInstanceOf(PathRecord);
    const before = { ...fs.calls };
    for (let i = 0; i < 10; i++) expect(await records.resolve('a/b/c.md')).toBe(first);
    expect(fs.calls).toEqual(before);
  });

  it('without the watch: one stat per resolve, and no realpath', async () => {
    const fs = countingFs();
    const records = recordsOf(fs, stubWatch(false));
    const first = await records.resolve('e.md');
    const before = { ...fs.calls };
    for (let i = 0; i < 10; i++) expect(await records.resolve('e.md')).toBe(first);
    expect(fs.calls).toEqual({ realpath: before.realpath, stat: before.stat + 10 });
  });

  it('a symlink on the path is checked by one stat even while covered', async () => {
    const fs = countingFs();
    const records = recordsOf(fs, stubWatch());
    const first = await records.resolve('link.md');
    expect(first).toMatchObject({ names: ['link.md', 'a/d.md'], real: join(root, 'a', 'd.md') });
    const before = { ...fs.calls };
    expect(await records.resolve('link.md')).toBe(first);
    expect(fs.calls).toEqual({ realpath: before.realpath, stat: before.stat + 1 });
  });

  it('a watch lost since the path was resolved is not trusted: a stat', async () => {
    const fs = countingFs();
    const watch = stubWatch();
    const records = recordsOf(fs, watch);
    const first = await records.resolve('e.md');
    watch.lose();
    const before = fs.calls.stat;
    expect(await records.resolve('e.md')).toBe(first);
    expect(fs.calls.stat).toBe(before + 1);
  });

  it('concurrent misses of one path share one realpath', async () => {
    const fs = countingFs();
    const records = recordsOf(fs, stubWatch());
    const all = await Promise.all(Array.from({ length: 20 }, () => records.resolve('a/d.md')));
    expect(fs.calls.realpath).toBe(1);
    for (const r of all) expect(r).toBe(all[0]);
  });

  it('expires after ttlMs: renewed by a stat and a realpath when unchanged, resolved again when not', async () => {
    let now = 0;
    const fs = countingFs();
    const records = recordsOf(fs, stubWatch(), { ttlMs: 100, now: () => now });
    await writeFile(join(root, 'ttl.md'), 'one');
    const first = await records.resolve('ttl.md');
    const { realpath, stat } = fs.calls;
    now = 99;
    expect(await records.resolve('ttl.md')).toBe(first);
    expect(fs.calls.stat).toBe(stat);
    now = 100;
    expect(await records.resolve('ttl.md')).toBe(first);
    expect(fs.calls).toEqual({ realpath: realpath + 1, stat: stat + 1 });
    now = 199;
    expect(await records.resolve('ttl.md')).toBe(first); // renewed for another ttlMs
    expect(fs.calls.stat).toBe(stat + 1);
    // A change no watch reported: the stat at the next expiry sees it.
    await writeFile(join(root, 'ttl.md'), 'two, longer');
    now = 200;
    const again = await records.resolve('ttl.md');
    expect(again).not.toBe(first);
    expect(fs.calls.realpath).toBe(realpath + 2);
    expect((first as PathRecord).current).toBe(false);
  });

  it('a folder on the path swapped for a symlink outside, unreported: refused at the expiry, never renewed', async () => {
    let now = 0;
    const records = recordsOf(countingFs(), stubWatch(), { ttlMs: 100, now: () => now });
    await mkdir(join(root, 'mv'));
    await writeFile(join(root, 'mv', 'f.md'), 'f');
    const first = await records.resolve('mv/f.md');
    expect(first).toBeInstanceOf(PathRecord);
    await rename(join(root, 'mv'), join(base, 'moved-out'));
    await symlink(join(base, 'moved-out'), join(root, 'mv'));
    now = 100; // the same file (device, inode, times) by stat, but its path now leads outside
    const after = await records.resolve('mv/f.md');
    expect(after).not.toBe(first);
    expect(after.kind).not.toBe('file');
    now = 150; // and it is not served later either
    expect(await records.resolve('mv/f.md')).toMatchObject({ kind: after.kind });
  });

  it('keeps at most maxEntries, the oldest going first', async () => {
    const fs = countingFs();
    const records = recordsOf(fs, stubWatch(), { maxEntries: 2 });
    const e = await records.resolve('e.md');
    const d = await records.resolve('a/d.md');
    const c = await records.resolve('a/b/c.md');
    expect((e as PathRecord).current).toBe(false);
    const before = fs.calls.realpath;
    // The two newest are served from memory; the oldest is resolved again.
    expect(await records.resolve('a/d.md')).toBe(d);
    expect(await records.resolve('a/b/c.md')).toBe(c);
    expect(fs.calls.realpath).toBe(before);
    expect(await records.resolve('e.md')).not.toBe(e);
    expect(fs.calls.realpath).toBe(before + 1);
  });

  it.each([
    ['ttlMs', { ttlMs: 0 }],
    ['maxEntries', { maxEntries: 0 }],
  ])('%s 0 keeps none: every resolve does the whole resolution', async (_name, limit) => {
    const fs = countingFs();
    const none = recordsOf(fs, stubWatch(), limit);
    for (let i = 1; i <= 3; i++) {
      const r = await none.resolve('e.md');
      expect(r).toMatchObject({ kind: 'file' });
      expect(r).not.toBeInstanceOf(PathRecord);
      expect(fs.calls.realpath).toBe(i);
    }
  });

  it('rejects a limit that is not a whole number of 0 or more', () => {
    expect(() => recordsOf(nodeFs, stubWatch(), { ttlMs: -1 })).toThrow(RangeError);
    expect(() => recordsOf(nodeFs, stubWatch(), { maxEntries: 1.5 })).toThrow(/maxResolvedPaths/);
  });

  it('remembers only servable files: a refusal or a missing file is resolved every time', async () => {
    const fs = countingFs();
    const records = recordsOf(fs, stubWatch());
    await symlink(join(base, 'secret.txt'), join(root, 'out.md'));
    try {
      const before = fs.calls.realpath;
      expect(await records.resolve('out.md')).toMatchObject({ kind: 'refused' });
      expect(await records.resolve('nope.md')).toEqual({ kind: 'missing' });
      const once = fs.calls.realpath - before;
      expect(once).toBeGreaterThan(0);
      expect(await records.resolve('out.md')).toMatchObject({ kind: 'refused' });
      expect(await records.resolve('nope.md')).toEqual({ kind: 'missing' });
      expect(fs.calls.realpath - before).toBe(2 * once);
    } finally {
      await rm(join(root, 'out.md'));
    }
  });
});

describe('PathRecords: what drops a record', () => {
  it('a change at the file, at a folder above it, or anywhere (undefined)', async () => {
    const records = recordsOf(nodeFs, stubWatch());
    const c = (await records.resolve('a/b/c.md')) as PathRecord;
    const d = (await records.resolve('a/d.md')) as PathRecord;
    const e = (await records.resolve('e.md')) as PathRecord;
    records.drop('a/b/c.md.swp'); // a sibling whose name starts alike drops nothing
    records.drop('a/b/c');
    expect([c.current, d.current, e.current]).toEqual([true, true, true]);
    records.drop('a/b');
    expect([c.current, d.current, e.current]).toEqual([false, true, true]);
    records.drop('a');
    expect(d.current).toBe(false);
    records.drop(undefined);
    expect(e.current).toBe(false);
    expect(await records.resolve('e.md')).not.toBe(e);
  });

  it('a symlinked path is dropped by a change at its real path too', async () => {
    const records = recordsOf(nodeFs, stubWatch());
    const link = (await records.resolve('link.md')) as PathRecord;
    records.drop('a/d.md');
    expect(link.current).toBe(false);
  });

  it.each([
    ['the path', 'a/b/c.md', false],
    ['a folder above it', 'a', false],
    ['anywhere (undefined)', undefined, false],
    ['elsewhere', 'e.md', true],
    ['a sibling named alike', 'a/b/c.md.swp', true],
  ])(
    'a resolution in flight during a change at %s: remembered %s',
    async (_where, changed, remembered) => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let realpaths = 0;
      const fs: ProviderFs = {
        ...nodeFs,
        realpath: async (p) => (realpaths++, await gate, nodeFs.realpath(p)),
      };
      const records = recordsOf(fs, stubWatch());
      const pending = records.resolve('a/b/c.md');
      records.drop(changed);
      // A read after the change does not join the resolution that may predate it.
      const later = records.resolve('a/b/c.md');
      release();
      expect(await pending).toMatchObject({ kind: 'file' });
      expect((await later) === (await pending)).toBe(remembered);
      expect((await pending) instanceof PathRecord).toBe(remembered);
      // Either way one record is kept, and later reads are served from it.
      const kept = await later;
      expect(kept).toBeInstanceOf(PathRecord);
      const before = realpaths;
      expect(await records.resolve('a/b/c.md')).toBe(kept);
      expect(realpaths).toBe(before);
    },
  );
});

describe('PathRecords: a symlink swapped before the watch reports it', () => {
  it('retargeted outside the root: refused on the next resolve, no event needed', async () => {
    await writeFile(join(root, 'inside.md'), 'inside');
    await symlink(join(root, 'inside.md'), join(root, 'swap.md'));
    const records = recordsOf(nodeFs, stubWatch()); // covered, and no drop ever comes
    expect(await records.resolve('swap.md')).toBeInstanceOf(PathRecord);
    await symlink(join(base, 'secret.txt'), join(root, 'swap.tmp'));
    await rename(join(root, 'swap.tmp'), join(root, 'swap.md'));
    expect(await records.resolve('swap.md')).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('outside the served folder'),
    });
  });
});

describe('foldersAbove', () => {
  it.each([
    ['a.md', ['']],
    ['a/b/c.md', ['', 'a', 'a/b']],
  ])('%s -> %j', (relative, dirs) => {
    expect(foldersAbove(relative)).toEqual(dirs);
  });
});
