// Resolve once, serve from memory while valid, through the provider on real files, watched and
// not: what a hit costs in fs calls, what a same-size rewrite that restores the mtime reads, a
// symlink retargeted outside the root (also before the watch reports it), and shared misses;
// with reads run asynchronously and synchronously (testing/fs-modes.ts).
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import {
  link,
  mkdir,
  mkdtemp,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../server/server.js';
import { modern } from '../../testing/messages.js';
import { connectInMemory, type MemoryConnection } from '../../transports/memory.js';
import type { ContentsOutcome } from './file-reader.js';
import { createFilesystemProvider, type FilesystemProvider } from './filesystem-provider.js';
import type { FolderChange } from './folder-changes.js';
import { reported } from '../../testing/folder-events.js';
import { FS_MODES, hookedFs, type FsMode } from '../../testing/fs-modes.js';
import { nodeFs, type ProviderFileHandle, type ProviderFs } from './fs-types.js';
import type { FilesystemProviderOptions } from './provider-options.js';

const MARKER = 'MCPKIT-OUTSIDE-MARKER-9b2c';
const MTIME_S = 1_700_000_000;

interface Calls {
  realpath: number;
  stat: number;
  opens: string[];
}

/** The file system of `mode` counting the calls a read may make (`open` alone reads bytes). */
function countingFs(mode: FsMode, base?: ProviderFs): ProviderFs & { calls: Calls } {
  const calls: Calls = { realpath: 0, stat: 0, opens: [] };
  const fs = hookedFs(
    mode,
    {
      realpath: () => void calls.realpath++,
      stat: () => void calls.stat++,
      open: (p) => void calls.opens.push(p),
    },
    base,
  );
  return { ...fs, calls };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(why: string, what: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) throw new Error(`${why}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function setup(
  options: Partial<FilesystemProviderOptions> & { fs?: ProviderFs; mode?: FsMode } = {},
) {
  const { mode = 'async', ...rest } = options;
  const base = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-resolve-once-')));
  cleanups.push(() => rm(base, { recursive: true, force: true }));
  const root = join(base, 'root');
  await mkdir(join(root, 'notes'), { recursive: true });
  await writeFile(join(root, 'notes', 'a.md'), 'inside');
  await writeFile(join(root, 'a.txt'), 'aaaa');
  // Whole seconds, so that restoring the mtime (as cp -p does) is exact.
  await utimes(join(root, 'a.txt'), MTIME_S, MTIME_S);
  await writeFile(join(base, 'secret.txt'), MARKER);
  await mkdir(join(base, 'elsewhere'));
  await writeFile(join(base, 'elsewhere', 'a.md'), MARKER);
  await symlink(join(root, 'notes', 'a.md'), join(root, 'link.md'));
  const fs = countingFs(mode, options.fs);
  const provider = createFilesystemProvider({
    root,
    settleMs: 0,
    watchDebounceMs: 20,
    ...rest,
    fs,
  });
  const server = createServer({ name: 'once', version: '1' });
  provider.register(server);
  await provider.ready();
  cleanups.push(() => provider.close());
  const conn = connectInMemory(server);
  /** Resolves when the watch reports `path` (subscribe before the change). */
  const seen = (path: string): Promise<void> => reported(provider, path);
  return { base, root, fs, provider, conn, seen };
}

const textOf = (outcome: ContentsOutcome): string | undefined =>
  outcome.kind === 'ok' ? outcome.contents.text : undefined;

async function read(conn: MemoryConnection, uri: string): Promise<unknown> {
  return conn.send(modern('resources/read', { uri }));
}

/**
 * Holds the watch's events back (the FolderChanges stream of the provider) until `release()`: a
 * change made meanwhile is on disk, its event not yet delivered.
 */
/** Resolves once `quietMs` pass without a folder change reported. */
function eventsOver(provider: FilesystemProvider, quietMs: number): Promise<void> {
  return new Promise((resolve) => {
    let timer = setTimeout(done, quietMs);
    const stop = provider.onFolderChange(() => {
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    });
    function done(): void {
      stop();
      resolve();
    }
  });
}

function holdEvents(provider: FilesystemProvider): { release(): void } {
  const changes = (
    provider as unknown as { freshness: { changes: { emit(change: FolderChange): void } } }
  ).freshness.changes;
  const emit = changes.emit.bind(changes);
  const held: FolderChange[] = [];
  changes.emit = (change) => void held.push(change);
  return {
    release() {
      changes.emit = emit;
      for (const change of held.splice(0)) emit(change);
    },
  };
}

describe.each(FS_MODES)('%s reads', (mode) => {
  const setupIn = (options: Parameters<typeof setup>[0] = {}) => setup({ mode, ...options });

  describe.each([true, false])('watch: %s', (watch) => {
    it('a hit does no realpath; watched, no stat either; unwatched, exactly one stat', async () => {
      const { fs, provider } = await setupIn({ watch });
      expect(textOf(await provider.contents('notes/a.md'))).toBe('inside');
      expect(await provider.stat('notes/a.md')).toMatchObject({ size: 6 });
      const before = {
        realpath: fs.calls.realpath,
        stat: fs.calls.stat,
        opens: fs.calls.opens.length,
      };
      for (let i = 0; i < 20; i++) {
        expect(textOf(await provider.contents('notes/a.md'))).toBe('inside');
        expect(await provider.stat('notes/a.md')).toMatchObject({ size: 6 });
      }
      expect(fs.calls.realpath).toBe(before.realpath);
      expect(fs.calls.stat).toBe(before.stat + (watch ? 0 : 40));
      expect(fs.calls.opens.length).toBe(before.opens);
    });

    it('a change the watch reports drops the record at once: the next read resolves again', async () => {
      const { root, fs, provider, seen } = await setupIn({ watch });
      expect(textOf(await provider.contents('notes/a.md'))).toBe('inside');
      const reported = watch ? seen('notes/a.md') : undefined;
      await writeFile(join(root, 'notes', 'a.md'), 'changed');
      await reported;
      const before = fs.calls.realpath;
      expect(textOf(await provider.contents('notes/a.md'))).toBe('changed');
      // At least once: a write may be reported twice (truncate, then data), each dropping it again.
      expect(fs.calls.realpath).toBeGreaterThanOrEqual(before + 1);
    });

    it('a same-size file renamed over, its mtime restored (cp -p, rsync -t): the new bytes', async () => {
      const { root, provider, seen } = await setupIn({ watch });
      const file = join(root, 'a.txt');
      const old = await stat(file);
      expect(textOf(await provider.contents('a.txt'))).toBe('aaaa');
      await writeFile(join(root, 'a.txt.new'), 'bbbb');
      await utimes(join(root, 'a.txt.new'), MTIME_S, MTIME_S);
      const reported = watch ? seen('a.txt') : undefined;
      await rename(join(root, 'a.txt.new'), file);
      const now = await stat(file);
      expect([now.size, now.mtimeMs, now.ino === old.ino]).toEqual([old.size, old.mtimeMs, false]);
      await reported;
      expect(textOf(await provider.contents('a.txt'))).toBe('bbbb');
    });

    it('a same-size rewrite in place, its mtime restored: the ctime moved, the new bytes', async () => {
      const { root, provider, seen } = await setupIn({ watch });
      const file = join(root, 'a.txt');
      const old = await stat(file);
      expect(textOf(await provider.contents('a.txt'))).toBe('aaaa');
      // Past the file system's clock tick, so that the rewrite gets another ctime.
      await until('a clock tick past the ctime', () => Date.now() > old.ctimeMs + 30);
      const reported = watch ? seen('a.txt') : undefined;
      await writeFile(file, 'cccc');
      await utimes(file, MTIME_S, MTIME_S);
      const now = await stat(file);
      expect([now.ino, now.size, now.mtimeMs]).toEqual([old.ino, old.size, old.mtimeMs]);
      expect(now.ctimeMs).not.toBe(old.ctimeMs);
      await reported;
      expect(textOf(await provider.contents('a.txt'))).toBe('cccc');
    });

    it('a symlink retargeted outside the root between two reads: -32602 on the second', async () => {
      const { root, base, conn, seen } = await setupIn({ watch });
      expect(JSON.stringify(await read(conn, 'file:///link.md'))).toContain('"text":"inside"');
      const reported = watch ? seen('link.md') : undefined;
      await symlink(join(base, 'secret.txt'), join(root, 'link.tmp'));
      await rename(join(root, 'link.tmp'), join(root, 'link.md'));
      await reported;
      const res = await read(conn, 'file:///link.md');
      expect(res).toMatchObject({ error: { code: -32602 } });
      expect(JSON.stringify(res)).not.toContain(MARKER);
    });

    it('50 concurrent reads of one 4 MiB file open it once, cached or not', async () => {
      for (const cacheBytes of [undefined, 0]) {
        const { root, fs, provider, seen } = await setupIn({
          watch,
          ...(cacheBytes === 0 ? { cacheBytes } : {}),
        });
        const bytes = randomBytes(4 * 1024 * 1024);
        const reported = watch ? seen('big.bin') : undefined;
        await writeFile(join(root, 'big.bin'), bytes);
        // A large write may be reported in several events: wait until they are over, or one
        // arriving amid the reads would (rightly) make them resolve the path again.
        if (reported) await reported.then(() => eventsOver(provider, 150));
        const realpaths = fs.calls.realpath;
        // The listing's own look at a new file (its type) is not a read's.
        const opens = (): number => fs.calls.opens.filter((p) => p.endsWith('big.bin')).length;
        const opened = opens();
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, () => provider.contents('big.bin')),
        );
        expect(opens() - opened).toBe(1);
        expect(fs.calls.realpath - realpaths).toBe(1);
        const first = outcomes[0];
        if (first?.kind !== 'ok') throw new Error(`expected ok, got ${first?.kind}`);
        expect(Buffer.from(first.contents.blob ?? '', 'base64').equals(bytes)).toBe(true);
        for (const outcome of outcomes) expect(outcome).toStrictEqual(first);
      }
    });
  });

  describe('a change on disk before the watch reports it (the residual window)', () => {
    it('a symlink retargeted outside: refused at once, by its stat', async () => {
      const { root, base, conn, provider } = await setupIn({ watch: true });
      expect(JSON.stringify(await read(conn, 'file:///link.md'))).toContain('"text":"inside"');
      const events = holdEvents(provider);
      await symlink(join(base, 'secret.txt'), join(root, 'link.tmp'));
      await rename(join(root, 'link.tmp'), join(root, 'link.md'));
      const res = await read(conn, 'file:///link.md');
      events.release();
      expect(res).toMatchObject({ error: { code: -32602 } });
      expect(JSON.stringify(res)).not.toContain(MARKER);
    });

    it.each([
      ['the file', 'notes/a.md', (base: string) => join(base, 'secret.txt')],
      ['a folder above it', 'notes', (base: string) => join(base, 'elsewhere')],
    ])(
      '%s swapped for a symlink outside: never a byte from outside; refused once reported',
      async (_what, swapped, target) => {
        for (const cacheBytes of [undefined, 0]) {
          const { root, base, conn, provider } = await setupIn({
            watch: true,
            ...(cacheBytes === 0 ? { cacheBytes } : {}),
          });
          expect(JSON.stringify(await read(conn, 'file:///notes/a.md'))).toContain('"inside"');
          const events = holdEvents(provider);
          await rename(join(root, swapped), join(base, 'moved-away'));
          await symlink(target(base), join(root, swapped));
          // In the window: the old (inside) bytes when cached (unless the watcher already dropped
          // the folder's watch, see folder-watcher.ts), else the open's checks refuse it.
          const during = await read(conn, 'file:///notes/a.md');
          expect(JSON.stringify(during)).not.toContain(MARKER);
          if (cacheBytes === 0) expect(during).toMatchObject({ error: { code: -32602 } });
          else if (swapped === 'notes/a.md') expect(JSON.stringify(during)).toContain('"inside"');
          else expect(JSON.stringify(during)).toMatch(/"inside"|-32602/);
          events.release();
          const after = await read(conn, 'file:///notes/a.md');
          expect(after).toMatchObject({ error: { code: -32602 } });
          expect(JSON.stringify(after)).not.toContain(MARKER);
        }
      },
    );

    it('a file in a folder created after the last walk (not watched yet) is checked by a stat', async () => {
      const { root, fs, provider } = await setupIn({ watch: true });
      const events = holdEvents(provider); // no walk, so the new folder gets no watch
      await mkdir(join(root, 'fresh'));
      await writeFile(join(root, 'fresh', 'b.md'), 'one');
      expect(textOf(await provider.contents('fresh/b.md'))).toBe('one');
      const before = fs.calls.stat;
      expect(textOf(await provider.contents('fresh/b.md'))).toBe('one');
      expect(fs.calls.stat).toBe(before + 1);
      await writeFile(join(root, 'fresh', 'b.md'), 'two, longer');
      expect(textOf(await provider.contents('fresh/b.md'))).toBe('two, longer');
      events.release();
    });
  });

  describe('watched: hard links, which a folder watch does not see', () => {
    it('refuseHardLinks: a link made outside to a served file refuses it on the next read', async () => {
      const { root, base, conn } = await setupIn({ watch: true, refuseHardLinks: true });
      expect(JSON.stringify(await read(conn, 'file:///notes/a.md'))).toContain('"inside"');
      await link(join(root, 'notes', 'a.md'), join(base, 'other-name.md'));
      expect(await read(conn, 'file:///notes/a.md')).toMatchObject({ error: { code: -32602 } });
    });

    it('a file with another name outside: a write through that name is read at once', async () => {
      const { root, base, provider } = await setupIn({ watch: true });
      await link(join(root, 'a.txt'), join(base, 'other-name.txt'));
      expect(textOf(await provider.contents('a.txt'))).toBe('aaaa');
      await writeFile(join(base, 'other-name.txt'), 'written elsewhere');
      expect(textOf(await provider.contents('a.txt'))).toBe('written elsewhere');
    });
  });

  describe('watched: the watch follows a folder removed and made again', () => {
    it('reads what the new folder holds, and its later changes', async () => {
      const { root, provider, seen } = await setupIn({ watch: true });
      expect(textOf(await provider.contents('notes/a.md'))).toBe('inside');
      const gone = seen('notes');
      await rm(join(root, 'notes'), { recursive: true });
      await mkdir(join(root, 'notes'));
      await writeFile(join(root, 'notes', 'a.md'), 'again');
      await gone;
      await provider.settled();
      expect(textOf(await provider.contents('notes/a.md'))).toBe('again');
      // The new folder is watched: a change in it is reported, and read.
      await until(
        'the new folder watched',
        () =>
          (
            provider as unknown as { freshness: { coverage(d: string[]): unknown } }
          ).freshness.coverage(['', 'notes']) !== undefined,
      );
      const changed = seen('notes/a.md');
      await writeFile(join(root, 'notes', 'a.md'), 'and again');
      await changed;
      expect(textOf(await provider.contents('notes/a.md'))).toBe('and again');
    });
  });
});

describe('a clock too coarse to move the ctime (same tick): the inode tells', () => {
  /** Every stat, path or descriptor, with one ctime: only device and inode tell files apart. */
  function coarseFs(): ProviderFs {
    const flat = <T extends Stats>(s: T): T => Object.assign(s, { ctimeMs: 1 });
    const handle = (h: ProviderFileHandle): ProviderFileHandle =>
      new Proxy(h, {
        get(target, prop) {
          if (prop === 'stat') return async () => flat(await target.stat());
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    return {
      ...nodeFs,
      stat: async (p) => flat(await nodeFs.stat(p)),
      open: async (p, flags) => handle(await nodeFs.open(p, flags)),
    };
  }

  it('a same-size file renamed over, mtime restored, same ctime: the new bytes', async () => {
    const { root, provider } = await setup({ watch: false, fs: coarseFs() });
    const file = join(root, 'a.txt');
    expect(textOf(await provider.contents('a.txt'))).toBe('aaaa');
    await writeFile(join(root, 'a.txt.new'), 'dddd');
    await utimes(join(root, 'a.txt.new'), MTIME_S, MTIME_S);
    await rename(join(root, 'a.txt.new'), file);
    expect(textOf(await provider.contents('a.txt'))).toBe('dddd');
  });
});
