import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory, type MemoryConnection } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { serveFolder } from './folder-server.js';
import { nodeFs, type ProviderFileHandle, type ProviderFs } from './fs-types.js';
import { defaultMaxStalledReads, maxStalledReadsOf, ReadStalls } from './read-stalls.js';
import { MAX_TIMER_MS, readTimeoutOf, timerFor, withinTime } from './read-timeout.js';

type Res = {
  result?: { contents?: Array<{ text?: string }> } & Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-read-timeout-'));
  root = await nodeFs.realpath(base);
  await writeFile(join(root, 'a.txt'), 'a quick file');
  for (let i = 0; i < 8; i++) await writeFile(join(root, `slow${i}.txt`), `slow ${i}`);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/**
 * node's fs, except that an open of a file named `slow*` hangs until `release()` (a hung
 * network mount); `closed` counts the handles of those opens closed once they returned.
 */
function hangingFs() {
  const hung: Array<() => void> = [];
  const state = { closed: 0, pending: () => hung.length };
  const fs: ProviderFs = {
    ...nodeFs,
    open: (p, flags) => {
      if (!basename(p).startsWith('slow')) return nodeFs.open(p, flags);
      return new Promise<ProviderFileHandle>((resolve, reject) => {
        hung.push(() =>
          nodeFs.open(p, flags).then((handle) => {
            const close = handle.close.bind(handle);
            handle.close = () => close().then(() => void state.closed++);
            resolve(handle);
          }, reject),
        );
      });
    },
  };
  const release = (): void => hung.splice(0).forEach((go) => go());
  return { fs, state, release };
}

function serve(fs: ProviderFs, readTimeoutMs?: number, maxStalledReads?: number): MemoryConnection {
  const server = createServer({ name: 'read-timeout', version: '1' });
  serveFolder(server, {
    root,
    fs,
    settleMs: 0,
    ...(readTimeoutMs ? { readTimeoutMs } : {}),
    ...(maxStalledReads ? { maxStalledReads } : {}),
  });
  return connectInMemory(server);
}

async function send(conn: MemoryConnection, method: string, params: Record<string, unknown>) {
  return (await conn.send(modern(method, params))) as Res;
}

/** Turns of the event loop until `done()` (no timing: the hung calls are counted). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
}

describe('readTimeoutMs', () => {
  it('a read of a hung file ends with -32603 naming the URI and the limit; its file is closed once the open returns', async () => {
    const { fs, state, release } = hangingFs();
    // Long enough for the read to reach its open on a loaded machine.
    const conn = serve(fs, 500);
    for (const uri of ['file:///slow0.txt', 'file:///slow1.txt?offset=0&length=4']) {
      const res = await send(conn, 'resources/read', { uri });
      expect(res.error).toMatchObject({
        code: -32603,
        message: `${uri}: reading took longer than 500 ms (readTimeoutMs)`,
        data: { uri, reason: 'timeout', readTimeoutMs: 500 },
      });
    }
    expect(state.pending()).toBe(2);
    release();
    await until(() => state.closed === 2);
  });

  it('8 hung reads at once: another file and server/discover still answer, before any of them', async () => {
    const { fs, state, release } = hangingFs();
    const conn = serve(fs);
    let settled = 0;
    const slow = Array.from({ length: 8 }, (_, i) =>
      send(conn, 'resources/read', { uri: `file:///slow${i}.txt` }).finally(() => settled++),
    );
    await until(() => state.pending() === 8);
    const quick = await send(conn, 'resources/read', { uri: 'file:///a.txt' });
    expect(quick.result?.contents?.[0]?.text).toBe('a quick file');
    const discover = await send(conn, 'server/discover', {});
    expect(discover.error).toBeUndefined();
    expect(discover.result).toBeDefined();
    expect(settled).toBe(0);
    release();
    const answers = await Promise.all(slow);
    expect(answers.map((a) => a.result?.contents?.[0]?.text)).toEqual(
      Array.from({ length: 8 }, (_, i) => `slow ${i}`),
    );
    await until(() => state.closed === 8);
  });

  it('is a whole number of milliseconds, at least 1, or Infinity', () => {
    expect(readTimeoutOf(undefined)).toBe(30_000);
    expect(readTimeoutOf(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => readTimeoutOf(bad)).toThrow(/readTimeoutMs must be a whole number/);
  });
});

describe('maxStalledReads: reads past their limit that still hold a pool thread', () => {
  it('a file whose read still waits is not opened again: the next read of it answers at once', async () => {
    const { fs, state, release } = hangingFs();
    const conn = serve(fs, 50, 4);
    const first = await send(conn, 'resources/read', { uri: 'file:///slow0.txt' });
    expect(first.error?.data).toMatchObject({ reason: 'timeout' });
    expect(state.pending()).toBe(1);
    for (const uri of ['file:///slow0.txt', 'file:///slow0.txt?offset=0&length=4']) {
      const again = await send(conn, 'resources/read', { uri });
      expect(again.error).toMatchObject({
        code: -32603,
        message: expect.stringContaining(
          `${uri}: not read: an earlier read of this file, given up on at its time limit, still waits`,
        ),
        data: { uri, reason: 'stalled', readTimeoutMs: 50 },
      });
    }
    expect(state.pending()).toBe(1);
    // Another file still reads; once the hung call returns, so does this one.
    expect((await send(conn, 'resources/read', { uri: 'file:///a.txt' })).result).toBeDefined();
    release();
    await until(() => state.closed === 1);
    const after = await send(conn, 'resources/read', { uri: 'file:///slow0.txt' });
    expect(after.result?.contents?.[0]?.text).toBe('slow 0');
  });

  it('many readers of one hung file count as one stall: other files still read', async () => {
    const { fs, state, release } = hangingFs();
    const conn = serve(fs, 50, 2);
    const uri = 'file:///slow3.txt';
    const readers = await Promise.all(
      Array.from({ length: 16 }, () => send(conn, 'resources/read', { uri })),
    );
    // Readers that arrive after the first gave up (a loaded machine spreads 16 requests over
    // more than 50 ms) are refused as stalled at once; none reaches the disk a second time.
    const reasons = readers.map((r) => (r.error?.data as { reason?: string } | undefined)?.reason);
    expect(reasons).toContain('timeout');
    for (const reason of reasons) expect(['timeout', 'stalled']).toContain(reason);
    // One read holds one thread, however many gave up on it: the folder is not "stalled".
    expect(state.pending()).toBe(1);
    const quick = await send(conn, 'resources/read', { uri: 'file:///a.txt' });
    expect(quick.result?.contents?.[0]?.text).toBe('a quick file');
    const again = await send(conn, 'resources/read', { uri });
    expect(again.error?.data).toMatchObject({ reason: 'stalled' });
    expect(again.error?.data).not.toHaveProperty('maxStalledReads');
    release();
    await until(() => state.closed === 1);
  });

  it('counts one stall per path in ReadStalls itself', () => {
    const stalls = new ReadStalls(2, 50);
    const hung = new Promise<never>(() => undefined);
    for (let i = 0; i < 16; i++) stalls.abandon('one.txt', hung);
    expect(stalls.refusal('one.txt', 'one.txt')).toBeDefined();
    expect(stalls.refusal('other.txt', 'other.txt')).toBeUndefined();
    expect(stalls.refusal('file:///other.txt', 'other.txt')).toBeUndefined();
    stalls.abandon('two.txt', hung);
    expect(stalls.refusal('other.txt', 'other.txt')).toBeDefined();
  });

  it('past the bound, no read touches the disk until a stalled one returns', async () => {
    const { fs, state, release } = hangingFs();
    const conn = serve(fs, 50, 2);
    for (const name of ['slow0.txt', 'slow1.txt'])
      expect((await send(conn, 'resources/read', { uri: `file:///${name}` })).error).toBeDefined();
    expect(state.pending()).toBe(2);
    const refused = await send(conn, 'resources/read', { uri: 'file:///slow2.txt' });
    expect(refused.error).toMatchObject({
      code: -32603,
      data: { reason: 'stalled', maxStalledReads: 2 },
    });
    expect(refused.error?.message).toContain('(maxStalledReads)');
    expect(state.pending()).toBe(2);
    release();
    await until(() => state.closed === 2);
    const quick = await send(conn, 'resources/read', { uri: 'file:///a.txt' });
    expect(quick.result?.contents?.[0]?.text).toBe('a quick file');
  });

  it('is a whole number, at least 1; by default half of the pool', () => {
    expect(maxStalledReadsOf(3)).toBe(3);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => maxStalledReadsOf(bad)).toThrow(/maxStalledReads must be a whole number/);
    const was = process.env['UV_THREADPOOL_SIZE'];
    try {
      process.env['UV_THREADPOOL_SIZE'] = '32';
      expect(defaultMaxStalledReads()).toBe(16);
      delete process.env['UV_THREADPOOL_SIZE'];
      expect(defaultMaxStalledReads()).toBe(2);
    } finally {
      if (was === undefined) delete process.env['UV_THREADPOOL_SIZE'];
      else process.env['UV_THREADPOOL_SIZE'] = was;
    }
  });
});

describe('time limits beyond what a timer can wait', () => {
  it('are no limit: a pending read is not ended after 1 ms (Node clamps longer timers)', async () => {
    expect(readTimeoutOf(2 ** 31)).toBe(2 ** 31);
    expect(timerFor(MAX_TIMER_MS, () => undefined)).toBeUndefined();
    expect(timerFor(Number.POSITIVE_INFINITY, () => undefined)).toBeUndefined();
    let finish!: (value: string) => void;
    const work = new Promise<string>((resolve) => (finish = resolve));
    const limited = withinTime(work, 2 ** 31, 'file:///x.txt');
    const outcome = Promise.race([
      limited,
      new Promise((resolve) => setTimeout(() => resolve('still pending'), 20)),
    ]);
    expect(await outcome).toBe('still pending');
    finish('read');
    expect(await limited).toBe('read');
  });

  it('a limit a timer can wait still ends the read', async () => {
    const pending = new Promise<string>(() => undefined);
    await expect(withinTime(pending, 5, 'file:///x.txt')).rejects.toThrow(
      'file:///x.txt: reading took longer than 5 ms (readTimeoutMs)',
    );
  });
});
