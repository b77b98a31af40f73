// The provider's listing as files() gives it: one frozen list until the listing changes.
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
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
