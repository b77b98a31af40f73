// The watched folder end to end in one process: watcher events -> caches, listing, notifications.
// The server's per-URI attach tracker is fed by hand here (a stand-in for listen streams).
import { mkdir, mkdtemp, realpath, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coversUri } from '../../uri/covers.js';
import { createServer } from '../../server/server.js';
import type { McpServer } from '../../server/index.js';
import { connectInMemory } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createFilesystemProvider } from './filesystem-provider.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import type { FilesystemProviderOptions } from './provider-options.js';
import { MAX_BASELINE_FILES } from './content-baselines.js';

type Hook = { attach(uri: string): void; detach(uri: string): void };

/** The server's attach tracker, by hand: what a listen stream naming `uri` would do. */
function handTracker(server: McpServer) {
  const counts = new Map<string, number>();
  const hooks = new Set<Hook>();
  vi.spyOn(server, 'onAttach').mockImplementation((hook: Hook) => {
    hooks.add(hook);
    for (const uri of counts.keys()) hook.attach(uri);
    return () => void hooks.delete(hook);
  });
  vi.spyOn(server, 'isAttached').mockImplementation((uri: string) =>
    [...counts.keys()].some((s) => coversUri(s, uri)),
  );
  return {
    attach(uri: string) {
      const n = counts.get(uri) ?? 0;
      counts.set(uri, n + 1);
      if (n === 0) for (const h of hooks) h.attach(uri);
    },
    detach(uri: string) {
      const n = counts.get(uri) ?? 0;
      if (n > 1) counts.set(uri, n - 1);
      else {
        counts.delete(uri);
        for (const h of hooks) h.detach(uri);
      }
    },
  };
}

/** node:fs that counts the opens of each path (the only call that reads bytes). */
function countingFs(): ProviderFs & { opens: string[] } {
  const opens: string[] = [];
  return { ...nodeFs, opens, open: (p, flags) => (opens.push(p), nodeFs.open(p, flags)) };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(what: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function setup(
  files: Record<string, string>,
  options: Partial<FilesystemProviderOptions> = {},
) {
  const dir = await mkdtemp(join(tmpdir(), 'mcpkit-fresh-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  const server = createServer({ name: 'fresh', version: '1' });
  const tracker = handTracker(server);
  const fs = countingFs();
  const warnings: string[] = [];
  const provider = createFilesystemProvider({
    root: dir,
    fs,
    watch: true,
    watchDebounceMs: 20,
    settleMs: 0,
    onWarning: (m) => warnings.push(m),
    ...options,
  });
  provider.register(server);
  await provider.ready();
  cleanups.push(() => provider.close());
  const updated: string[] = [];
  const listChanged: string[] = [];
  vi.spyOn(server, 'notifyResourceUpdated').mockImplementation((uri) => void updated.push(uri));
  vi.spyOn(server, 'notifyListChanged').mockImplementation((kind) => void listChanged.push(kind));
  /** Waits until the listing shows `name` at its current mtime (or gone), then for the announcements. */
  const walked = async (name: string): Promise<void> => {
    const mtimeMs = await stat(join(dir, name)).then(
      (s) => s.mtimeMs,
      () => undefined,
    );
    await until(async () => (await provider.file(name))?.mtimeMs === mtimeMs);
    await provider.settled();
  };
  const conn = connectInMemory(server);
  /**
   * Waits until the fingerprints taken on attach were read: each file was opened, and a read of
   * it then opens nothing (it joins that read or is served from what it cached).
   */
  const fingerprinted = async (...names: string[]): Promise<void> => {
    for (const name of names) {
      await until(() => fs.opens.some((p) => p.endsWith(`/${name}`)));
      await until(async () => {
        const opens = fs.opens.length;
        await conn.send(modern('resources/read', { uri: `file:///${name}` }));
        return fs.opens.length === opens;
      });
    }
  };
  return {
    dir,
    server,
    provider,
    tracker,
    updated,
    listChanged,
    fs,
    warnings,
    walked,
    fingerprinted,
  };
}

async function touch(file: string, plusMs = 5000): Promise<void> {
  const t = new Date(Date.now() + plusMs);
  await utimes(file, t, t);
}

describe('watched folder: notifications', () => {
  it('a changed file nobody listens to is announced from its size and times, unread', async () => {
    const { dir, updated, fs, walked } = await setup({ 'a.md': 'one' });
    const opens = fs.opens.length;
    await writeFile(join(dir, 'a.md'), 'two, longer');
    await walked('a.md');
    expect(updated).toEqual(['file:///a.md']);
    await touch(join(dir, 'a.md'));
    await walked('a.md');
    expect(updated).toEqual(['file:///a.md', 'file:///a.md']);
    expect(fs.opens.length).toBe(opens);
  });

  it('for a file someone listens to, a touch or the same bytes again send nothing; a change does', async () => {
    const { dir, provider, tracker, updated, walked, fingerprinted } = await setup({
      'a.md': 'one',
      'b.md': 'b',
    });
    tracker.attach('file:///a.md');
    await provider.settled();
    await fingerprinted('a.md');
    await touch(join(dir, 'a.md'));
    await walked('a.md');
    await writeFile(join(dir, 'a.md'), 'one');
    await walked('a.md');
    expect(updated).toEqual([]);
    await writeFile(join(dir, 'a.md'), 'three');
    await walked('a.md');
    expect(updated).toEqual(['file:///a.md']);
    // b.md is not listened to: its touch is announced unread.
    await touch(join(dir, 'b.md'));
    await walked('b.md');
    expect(updated).toEqual(['file:///a.md', 'file:///b.md']);
  });

  it('a change just before a listener attached is announced (its fingerprint may hold the change)', async () => {
    const { dir, tracker, updated, walked, fingerprinted } = await setup({ 'a.md': 'one' });
    await writeFile(join(dir, 'a.md'), 'two');
    tracker.attach('file:///a.md');
    await fingerprinted('a.md');
    await walked('a.md');
    expect(updated).toEqual(['file:///a.md']);
  });

  it('back to the same bytes after a read of a version in between: announced (the reader holds it)', async () => {
    const { dir, server, tracker, updated, walked, fingerprinted } = await setup(
      { 'a.md': 'one' },
      { watchDebounceMs: 300 },
    );
    tracker.attach('file:///a.md');
    await fingerprinted('a.md');
    const conn = connectInMemory(server);
    const read = async () => {
      const res = (await conn.send(
        modern('resources/read', { uri: 'file:///a.md' }),
      )) as unknown as {
        result: { contents: Array<{ text: string }> };
      };
      return res.result.contents[0]?.text;
    };
    // A read of the version the fingerprint was taken from changes nothing.
    expect(await read()).toBe('one');
    await touch(join(dir, 'a.md'));
    await walked('a.md');
    expect(updated).toEqual([]);
    // Within one debounce: "two" is written and read, then "one" again.
    await writeFile(join(dir, 'a.md'), 'two');
    expect(await read()).toBe('two');
    await writeFile(join(dir, 'a.md'), 'one');
    await walked('a.md');
    expect(updated.length).toBeGreaterThanOrEqual(1);
  });

  it('after the last listener leaves, nothing is read any more', async () => {
    const { dir, tracker, updated, walked, fs, fingerprinted } = await setup({ 'a.md': 'one' });
    tracker.attach('file:///a.md');
    tracker.attach('file:///a.md');
    await fingerprinted('a.md');
    tracker.detach('file:///a.md');
    // One listener is left: its fingerprint stands, a touch sends nothing.
    await touch(join(dir, 'a.md'));
    await walked('a.md');
    expect(updated).toEqual([]);
    tracker.detach('file:///a.md');
    const opens = fs.opens.length;
    await touch(join(dir, 'a.md'), 10_000);
    await walked('a.md');
    expect(updated).toEqual(['file:///a.md']);
    expect(fs.opens.length).toBe(opens);
  });

  it('a folder URI covers the files under it (fingerprinted on attach, up to a bound)', async () => {
    const { dir, tracker, updated, walked, fingerprinted } = await setup({
      'notes/a.md': 'a',
      'notes/b.md': 'b',
      'other.md': 'o',
    });
    tracker.attach('file:///notes/');
    await fingerprinted('notes/a.md', 'notes/b.md');
    expect(MAX_BASELINE_FILES).toBeGreaterThanOrEqual(2);
    await touch(join(dir, 'notes', 'a.md'));
    await walked('notes/a.md');
    expect(updated).toEqual([]);
    await writeFile(join(dir, 'notes', 'b.md'), 'b2');
    await walked('notes/b.md');
    expect(updated).toEqual(['file:///notes/b.md']);
  });

  it('added and removed files: list_changed once the listing shows it; an update too where someone listens', async () => {
    const { dir, provider, tracker, updated, listChanged, walked } = await setup({ 'a.md': 'a' });
    tracker.attach('file:///new.md');
    const seenAtListChange: string[][] = [];
    await writeFile(join(dir, 'new.md'), 'new');
    await writeFile(join(dir, 'other.md'), 'other');
    await walked('new.md');
    await walked('other.md');
    expect(listChanged.length).toBeGreaterThanOrEqual(1);
    expect(updated).toEqual(['file:///new.md']);
    seenAtListChange.push((await provider.files()).map((f) => f.path));
    expect(seenAtListChange[0]).toEqual(['a.md', 'new.md', 'other.md']);
    const before = listChanged.length;
    await unlink(join(dir, 'new.md'));
    await walked('new.md');
    expect(listChanged.length).toBe(before + 1);
    expect(updated).toEqual(['file:///new.md', 'file:///new.md']);
    expect((await provider.files()).map((f) => f.path)).toEqual(['a.md', 'other.md']);
  });

  it('1,000 rapid writes to one file: a few updates, the last one after the final write', async () => {
    const { dir, tracker, updated, walked, provider } = await setup(
      { 'a.md': 'start' },
      { settleMs: 100 },
    );
    tracker.attach('file:///a.md');
    for (let i = 0; i < 1000; i++) await writeFile(join(dir, 'a.md'), `version ${i}`);
    await walked('a.md');
    expect(updated.length).toBeGreaterThanOrEqual(1);
    expect(updated.length).toBeLessThan(50);
    const read = await provider.contents('a.md');
    expect(read).toMatchObject({ kind: 'ok', contents: { text: 'version 999' } });
  });
});

describe('watched folder: one stream of events', () => {
  it('every watcher event comes through onFolderChange with its path, before the debounce', async () => {
    const { dir, provider, walked } = await setup({ 'sub/a.md': 'a' });
    const seen: Array<string | undefined> = [];
    provider.onFolderChange((c) => seen.push(c.path));
    await writeFile(join(dir, 'sub', 'a.md'), 'changed');
    await until(() => seen.includes('sub/a.md'));
    await walked('sub/a.md');
  });

  it('a change drops the cached versions of the file at once; a dot-file walks nothing', async () => {
    const walks: number[] = [];
    const { dir, provider, walked } = await setup(
      { 'a.md': 'a' },
      { onProgress: (p) => void (p.done && walks.push(Date.now())) },
    );
    await provider.contents('a.md');
    expect(provider.cacheStats().entries).toBe(1);
    const dropped = new Promise<number>((resolve) =>
      provider.onFolderChange(() => resolve(provider.cacheStats().entries)),
    );
    await writeFile(join(dir, 'a.md'), 'b');
    // Listeners registered after the provider's own see the cache already emptied.
    expect(await dropped).toBe(0);
    await walked('a.md');
    const after = walks.length;
    const seen: Array<string | undefined> = [];
    provider.onFolderChange((c) => seen.push(c.path));
    await writeFile(join(dir, '.a.md.swp'), 'swap');
    await until(() => seen.includes('.a.md.swp'));
    await provider.settled();
    expect(walks.length).toBe(after);
  });
});

describe('unwatched folder', () => {
  it('sends nothing: the listing is walked again on demand, silently; rescan() announces', async () => {
    const { dir, provider, updated, listChanged } = await setup(
      { 'a.md': 'a' },
      { watch: false, rescanMs: 1 },
    );
    await writeFile(join(dir, 'a.md'), 'changed, longer');
    await writeFile(join(dir, 'b.md'), 'b');
    await until(async () => (await provider.files()).length === 2);
    expect((await provider.file('a.md'))?.size).toBe(15);
    expect(updated).toEqual([]);
    expect(listChanged).toEqual([]);
    await unlink(join(dir, 'b.md'));
    expect(await provider.rescan()).toEqual({ added: [], removed: ['b.md'], changed: [] });
    expect(listChanged).toEqual(['resources']);
  });
});

describe('unwatched folder: listeners cost nothing', () => {
  it('an attach (here, or from a listener on another instance) reads nothing', async () => {
    const { tracker, fs } = await setup({ 'a.md': 'a', 'd/b.md': 'b' }, { watch: false });
    const before = fs.opens.length;
    tracker.attach('file:///a.md');
    tracker.attach('file:///d/');
    await new Promise((r) => setTimeout(r, 50));
    expect(fs.opens.length).toBe(before);
  });
});

describe('FileIndex.refresh(fresh)', () => {
  it('a walk asked for during another starts after it (the first may have passed the change)', async () => {
    const { dir, provider } = await setup({ 'a.md': 'a' }, { watch: false, rescanMs: 60_000 });
    type Index = { refresh(fresh?: boolean): Promise<unknown> };
    const index = (provider as unknown as { listing: { index: Index } }).listing.index;
    type Diff = { added: string[] };
    const first = index.refresh() as Promise<Diff>;
    await writeFile(join(dir, 'b.md'), 'b');
    const fresh = index.refresh(true) as Promise<Diff>;
    expect(fresh).not.toBe(first);
    // The first walk may or may not have seen b.md; the fresh one began after the write.
    const [one, two] = await Promise.all([first, fresh]);
    expect([...one.added, ...two.added]).toEqual(['b.md']);
    expect(await index.refresh()).toMatchObject({ added: [] });
  });

  it('a rewrite that keeps size and mtime (cp -p) is a change', async () => {
    const { dir, provider } = await setup({ 'a.md': 'aaaa' }, { watch: false });
    const before = await stat(join(dir, 'a.md'));
    await writeFile(join(dir, 'a.md'), 'bbbb');
    await utimes(join(dir, 'a.md'), before.atime, before.mtime);
    expect(await provider.rescan()).toEqual({ added: [], removed: [], changed: ['a.md'] });
  });
});

describe('a listener attached while the first walk runs', () => {
  it('gets its fingerprint for a file not walked yet: a touch after the walk sends nothing', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-fresh-walk-')));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'sub', 'b.md'), 'b');
    await writeFile(join(dir, 'z.md'), 'same');
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const opens: string[] = [];
    const fs: ProviderFs = {
      ...nodeFs,
      readdir: (async (path: string, options: { withFileTypes: true }) => {
        if (path === join(dir, 'sub')) await gate;
        return nodeFs.readdir(path, options);
      }) as ProviderFs['readdir'],
      open: (path, flags) => (opens.push(path), nodeFs.open(path, flags)),
    };
    const server = createServer({ name: 'fresh', version: '1' });
    const tracker = handTracker(server);
    const provider = createFilesystemProvider({
      root: dir,
      fs,
      watch: true,
      watchDebounceMs: 20,
      settleMs: 0,
      walkWaitMs: 0,
    });
    provider.register(server);
    cleanups.push(() => provider.close());
    const updated: string[] = [];
    vi.spyOn(server, 'notifyResourceUpdated').mockImplementation((uri) => void updated.push(uri));
    await provider.open();
    expect(provider.listingState.complete).toBe(false);
    tracker.attach('file:///z.md');
    await until(() => opens.some((p) => p.endsWith('/z.md')));
    release();
    await provider.ready();
    const later = new Date(Date.now() + 60_000);
    await utimes(join(dir, 'z.md'), later, later);
    await writeFile(join(dir, 'z.md'), 'same');
    const mtimeMs = (await stat(join(dir, 'z.md'))).mtimeMs;
    await until(async () => (await provider.file('z.md'))?.mtimeMs === mtimeMs);
    await provider.settled();
    expect(updated).toEqual([]);
  });
});
