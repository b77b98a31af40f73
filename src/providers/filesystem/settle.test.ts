import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { createFilesystemProvider } from './filesystem-provider.js';
import { serveFolder } from './folder-server.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import { DEFAULT_SETTLE_MS, HOT_DWELL_MS, HOT_TRIES, READ_ATTEMPTS } from './read-file.js';

let root: string;
let file: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-settle-'));
  file = join(root, 'log.txt');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** When the file was last modified, as the settle rule sees it. */
const changedAt = (s: Stats): number => Math.max(s.mtimeMs, s.ctimeMs);

/** Writes the file in place (same inode) and returns when that was, by its own stats. */
async function put(contents: string): Promise<number> {
  await writeFile(file, contents);
  return changedAt(await stat(file));
}

/**
 * node:fs with a fake clock: `sleep(ms)` records the wait, advances the clock by `ms` and runs
 * `during(n)` (a writer, the n-th wait), with no real time passing. Counts the fstats and reads
 * made on opened handles.
 */
function fakeClockFs(
  options: { settleMs?: number | undefined; during?: (n: number) => Promise<void> } = {},
) {
  const seen = { clock: 0, sleeps: [] as number[], fstats: 0, reads: 0 };
  const fs: ProviderFs = {
    ...nodeFs,
    ...(options.settleMs !== undefined && { settleMs: options.settleMs }),
    now: () => seen.clock,
    sleep: async (ms) => {
      seen.sleeps.push(ms);
      seen.clock += ms;
      await options.during?.(seen.sleeps.length);
    },
    open: async (path, flags) => {
      const handle = await nodeFs.open(path, flags);
      return new Proxy(handle, {
        get(target, prop) {
          if (prop === 'stat') seen.fstats++;
          if (prop === 'read') seen.reads++;
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      }) as FileHandle;
    },
  };
  return { fs, seen };
}

async function providerOn(fs: ProviderFs) {
  const provider = createFilesystemProvider({ root, fs });
  await provider.ready();
  return provider;
}

function textOf(
  outcome: Awaited<ReturnType<ReturnType<typeof createFilesystemProvider>['contents']>>,
) {
  expect(outcome.kind).toBe('ok');
  return outcome.kind === 'ok' ? outcome.contents.text : undefined;
}

describe('settle: a file modified just now is left to settle before it is served', () => {
  it(`the default is ${DEFAULT_SETTLE_MS} ms`, () => {
    expect(DEFAULT_SETTLE_MS).toBe(100);
  });

  it('modified just now and then quiet: waits the rest of the window, one more fstat, serves it (and caches it)', async () => {
    const { fs, seen } = fakeClockFs();
    const provider = await providerOn(fs);
    seen.clock = (await put('A'.repeat(64))) + 10;
    seen.fstats = 0;
    expect(textOf(await provider.contents('log.txt'))).toBe('A'.repeat(64));
    expect(seen.sleeps).toEqual([DEFAULT_SETTLE_MS - 10]);
    expect(seen.fstats).toBe(3); // at the open, after the wait, after the bytes
    expect(provider.cacheStats().entries).toBe(1);
  });

  it('caught mid-write (a prefix): the write finishing during the wait is seen; the whole version is served, the prefix never read nor cached', async () => {
    const whole = 'A'.repeat(64);
    const { fs, seen } = fakeClockFs({
      during: async (n) => {
        if (n === 1) seen.clock = (await put(whole)) + 5; // the writer gets the CPU back
      },
    });
    const provider = await providerOn(fs);
    seen.clock = (await put(whole.slice(0, 16))) + 10;
    seen.reads = 0;
    expect(textOf(await provider.contents('log.txt'))).toBe(whole);
    expect(seen.sleeps).toEqual([DEFAULT_SETTLE_MS - 10, DEFAULT_SETTLE_MS - 5]);
    expect(seen.reads).toBe(1); // only the settled version's bytes were read
    // The path said 16 bytes, the settled version has 64: nothing is kept under the prefix's key.
    expect(provider.cacheStats().entries).toBe(0);
    seen.clock += 10_000;
    expect(textOf(await provider.contents('log.txt'))).toBe(whole);
    expect(provider.cacheStats().entries).toBe(1);
    expect(textOf(await provider.contents('log.txt'))).toBe(whole);
    expect(provider.cacheStats().hits).toBe(1);
  });

  it('takes settleMs from the provider options too (0: no wait)', async () => {
    const { fs, seen } = fakeClockFs();
    const provider = createFilesystemProvider({ root, fs, settleMs: 0 });
    await provider.ready();
    seen.clock = (await put('C'.repeat(8))) + 10;
    expect(textOf(await provider.contents('log.txt'))).toBe('C'.repeat(8));
    expect(seen.sleeps).toEqual([]);
    const slow = createFilesystemProvider({ root, fs, settleMs: 500 });
    await slow.ready();
    seen.clock = (await put('D'.repeat(8))) + 10;
    expect(textOf(await slow.contents('log.txt'))).toBe('D'.repeat(8));
    expect(seen.sleeps).toEqual([490]);
  });

  it('a time in the future (clock skew) waits the whole window once, never longer, then serves', async () => {
    const { fs, seen } = fakeClockFs();
    const provider = await providerOn(fs);
    seen.clock = (await put('B'.repeat(10))) - 60_000;
    expect(textOf(await provider.contents('log.txt'))).toBe('B'.repeat(10));
    expect(seen.sleeps).toEqual([DEFAULT_SETTLE_MS]);
  });

  it('a log appended during every settle window is served as it stands once the attempts are spent', async () => {
    let text = 'line 0\n';
    const { fs, seen } = fakeClockFs({
      during: async (n) => {
        text += `line ${n}\n`;
        seen.clock = (await put(text)) + 1;
      },
    });
    const provider = await providerOn(fs);
    seen.clock = (await put(text)) + 1;
    expect(textOf(await provider.contents('log.txt'))).toBe(text);
    expect(seen.sleeps).toHaveLength(3);
    expect(text).toContain('line 3');
  });

  it('keeps changing during every settle window and every dwell: -32603 "changed" after all the tries, nothing cached', async () => {
    const { fs, seen } = fakeClockFs({
      during: async (n) => {
        seen.clock = (await put((n % 2 ? 'B' : 'A').repeat(30 + n))) + 1;
      },
    });
    seen.clock = (await put('A'.repeat(64))) + 1;
    const server = createServer({ name: 'settle', version: '1' });
    const provider = serveFolder(server, { root, fs });
    await provider.ready();
    seen.reads = 0;
    const res = (await connectInMemory(server).send(
      modern('resources/read', { uri: 'file:///log.txt' }),
    )) as { result?: unknown; error?: { code: number; data?: unknown } };
    expect(res.result).toBeUndefined();
    expect(res.error?.code).toBe(-32603);
    expect(res.error?.data).toEqual({
      uri: 'file:///log.txt',
      reason: 'changed',
      attempts: READ_ATTEMPTS + HOT_TRIES,
    });
    // The settle windows, then one dwell per try: each saw the file change under it.
    expect(seen.sleeps).toHaveLength(READ_ATTEMPTS + HOT_TRIES);
    for (const ms of seen.sleeps.slice(0, 3)) expect(ms).toBeLessThanOrEqual(DEFAULT_SETTLE_MS);
    for (const ms of seen.sleeps.slice(3)) expect(ms).toBeLessThanOrEqual(HOT_DWELL_MS);
    expect(provider.cacheStats().entries).toBe(0);
  });

  it('rewritten during every settle window: a version that stands a dwell between two writes is served whole', async () => {
    const versions: string[] = [];
    const { fs, seen } = fakeClockFs({
      // A writer for the three settle windows and the first dwell; then it pauses.
      during: async (n) => {
        if (n > READ_ATTEMPTS + 1) return;
        const text = (n % 2 ? 'B' : 'A').repeat(30 + n);
        versions.push(text);
        seen.clock = (await put(text)) + 1;
      },
    });
    const provider = await providerOn(fs);
    seen.clock = (await put('A'.repeat(64))) + 1;
    expect(textOf(await provider.contents('log.txt'))).toBe(versions.at(-1));
    expect(seen.sleeps.slice(READ_ATTEMPTS)).toEqual([HOT_DWELL_MS, HOT_DWELL_MS]);
  });

  it('an empty file seen after the file changed is not served, however long it stays', async () => {
    const { fs, seen } = fakeClockFs({
      // Truncated in the first window, then left empty (a writer descheduled before its write).
      during: async (n) => {
        if (n === 1) seen.clock = (await put('')) + 1;
      },
    });
    const provider = await providerOn(fs);
    seen.clock = (await put('A'.repeat(64))) + 1;
    seen.reads = 0;
    expect(await provider.contents('log.txt')).toMatchObject({ kind: 'changed' });
    expect(seen.reads).toBe(0);
    // Empty from the start (no change seen): an empty file, served as one.
    seen.clock += 10_000;
    expect(textOf(await provider.contents('log.txt'))).toBe('');
  });

  it('not modified recently: served with no wait and no extra fstat', async () => {
    const at = await put('C'.repeat(20));
    const counts: number[] = [];
    for (const settleMs of [undefined, 0]) {
      const { fs, seen } = fakeClockFs({ settleMs });
      const provider = await providerOn(fs);
      seen.clock = at + 10 * 60_000;
      seen.fstats = 0;
      expect(textOf(await provider.contents('log.txt'))).toBe('C'.repeat(20));
      expect(seen.sleeps).toEqual([]);
      counts.push(seen.fstats);
    }
    expect(counts).toEqual([2, 2]); // at the open and after the bytes, settle rule or not
  });

  it('settleMs 0: no settle rule, a file modified just now is read at once, as it is', async () => {
    const { fs, seen } = fakeClockFs({
      settleMs: 0,
      during: () => Promise.reject(new Error('no wait expected')),
    });
    const provider = await providerOn(fs);
    // A prefix left by a writer that is not done: without the rule it is served as it stands.
    seen.clock = await put('D'.repeat(16));
    seen.fstats = 0;
    expect(textOf(await provider.contents('log.txt'))).toBe('D'.repeat(16));
    expect(seen.sleeps).toEqual([]);
    expect(seen.fstats).toBe(2);
  });

  it("a search's checkpoint runs after the wait: one out of time stops there, before a byte is read", async () => {
    const { fs, seen } = fakeClockFs();
    const provider = await providerOn(fs);
    seen.clock = (await put('E'.repeat(8))) + 1;
    seen.reads = 0;
    let checks = 0;
    const checkpoint = (): void => {
      checks++;
      throw new Error('out of time');
    };
    await expect(provider.contents('log.txt', Infinity, { checkpoint })).rejects.toThrow(
      'out of time',
    );
    expect([checks, seen.sleeps.length, seen.reads]).toEqual([1, 1, 0]);
  });

  it('a file older than the window by its mtime but just chmod-ed (ctime) settles too', async () => {
    const { fs, seen } = fakeClockFs();
    const provider = await providerOn(fs);
    await put('F'.repeat(8));
    const old = new Date(Date.UTC(2001, 0, 1));
    await utimes(file, old, old); // mtime long ago; the ctime is now
    seen.clock = (await stat(file)).ctimeMs + 20;
    expect(textOf(await provider.contents('log.txt'))).toBe('F'.repeat(8));
    expect(seen.sleeps).toEqual([DEFAULT_SETTLE_MS - 20]);
  });
});
