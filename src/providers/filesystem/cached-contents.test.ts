// The provider's no-I/O answer (cachedContents) and what search builds on it: contents given only
// while a read would serve them without touching the disk, so a scan never sees stale text.
import { mkdir, mkdtemp, realpath, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFilesystemProvider, type FilesystemProvider } from './filesystem-provider.js';
import { reported } from '../../testing/folder-events.js';

const MTIME_S = 1_700_000_000;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(watch: boolean) {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-cached-contents-')));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'notes'));
  await writeFile(join(root, 'a.txt'), 'alpha');
  await utimes(join(root, 'a.txt'), MTIME_S, MTIME_S);
  for (let i = 0; i < 5; i++) await writeFile(join(root, 'notes', `n${i}.md`), `note ${i} hay`);
  const provider = createFilesystemProvider({ root, watch, settleMs: 0, watchDebounceMs: 20 });
  await provider.ready();
  cleanups.push(() => provider.close());
  return { root, provider };
}

const seen = (provider: FilesystemProvider, path: string) => reported(provider, path);

describe('cachedContents', () => {
  it('is undefined until a read cached the file, then the cached contents, within maxSize', async () => {
    const { provider } = await setup(true);
    expect(provider.cachedContents('a.txt')).toBeUndefined();
    const read = await provider.contents('a.txt');
    expect(read.kind).toBe('ok');
    const cached = provider.cachedContents('a.txt');
    expect(cached?.text).toBe('alpha');
    expect(cached).toBe(read.kind === 'ok' ? read.contents : undefined);
    expect(provider.cachedContents('a.txt', 4)).toBeUndefined();
    expect(provider.cachedContents('a.txt', 5)?.text).toBe('alpha');
    expect(provider.cachedContents('missing.txt')).toBeUndefined();
  });

  it('without a watch nothing vouches for a record: always undefined (a read stats first)', async () => {
    const { provider } = await setup(false);
    expect((await provider.contents('a.txt')).kind).toBe('ok');
    expect(provider.cachedContents('a.txt')).toBeUndefined();
  });

  it('a same-size rename over with the mtime restored, once reported: undefined, then the new bytes', async () => {
    const { root, provider } = await setup(true);
    await provider.contents('a.txt');
    expect(provider.cachedContents('a.txt')?.text).toBe('alpha');
    await writeFile(join(root, 'a.new'), 'omega');
    await utimes(join(root, 'a.new'), MTIME_S, MTIME_S);
    const reported = seen(provider, 'a.txt');
    await rename(join(root, 'a.new'), join(root, 'a.txt'));
    await reported;
    expect(provider.cachedContents('a.txt')).toBeUndefined();
    const again = await provider.contents('a.txt');
    expect(again.kind === 'ok' ? again.contents.text : undefined).toBe('omega');
    expect(provider.cachedContents('a.txt')?.text).toBe('omega');
  });

  it('is undefined once the resolution outlived resolveTtlMs (a read looks at the disk again)', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-cached-ttl-')));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    await writeFile(join(root, 'a.txt'), 'alpha');
    const provider = createFilesystemProvider({
      root,
      watch: true,
      settleMs: 0,
      resolveTtlMs: 30,
    });
    await provider.ready();
    cleanups.push(() => provider.close());
    await provider.contents('a.txt');
    expect(provider.cachedContents('a.txt')?.text).toBe('alpha');
    await new Promise((r) => setTimeout(r, 60));
    expect(provider.cachedContents('a.txt')).toBeUndefined();
  });
});

describe('files()', () => {
  it('is one frozen list until the listing changes', async () => {
    const { root, provider } = await setup(true);
    const a = await provider.files();
    expect(await provider.files()).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a[0])).toBe(true);
    expect(a.map((f) => f.uri)).toContain('file:///notes/n0.md');
    const reported = seen(provider, 'b.txt');
    await writeFile(join(root, 'b.txt'), 'new');
    await reported;
    let b = a;
    for (let i = 0; i < 100 && b === a; i++) {
      await new Promise((r) => setTimeout(r, 20));
      b = await provider.files();
    }
    expect(b).not.toBe(a);
    expect(b.map((f) => f.path)).toContain('b.txt');
  });
});
