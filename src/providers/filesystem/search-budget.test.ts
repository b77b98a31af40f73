import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectInMemory } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { createFilesystemProvider } from './filesystem-provider.js';
import { serveFolder, type ServeFolderOptions } from './folder-server.js';
import { nodeFs, type ProviderFileHandle, type ProviderFs } from './fs-types.js';
import { READ_CHUNK_BYTES } from './read-range.js';
import { SearchGate, type Release } from './search-gate.js';
import { stopNote } from './folder-text.js';
import { SEARCH_DEFAULTS, searchFiles } from './search.js';

type Block = { type: string; text?: string; name?: string };
type Res = {
  result?: { content?: Block[]; isError?: boolean; messages?: unknown[] };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

let base: string;
/** 30 small text files, f00.txt to f29.txt; only f25 holds the needle. */
let small: string;
/** One 4 MiB text file: four read steps. */
let large: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-search-budget-'));
  small = join(base, 'small');
  large = join(base, 'large');
  await mkdir(small);
  await mkdir(large);
  for (let i = 0; i < 30; i++) {
    const name = `f${String(i).padStart(2, '0')}.txt`;
    await writeFile(join(small, name), `${i === 25 ? 'needle' : 'hay'} `.padEnd(100, '.'));
  }
  await writeFile(join(large, 'big.txt'), `${'a'.repeat(4 * READ_CHUNK_BYTES - 6)}needle`);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

afterEach(() => {
  vi.useRealTimers();
});

/** Wraps every opened handle: `onRead(n)` runs after the n-th `read` call of that handle. */
function readHookFs(onRead: (n: number, path: string) => void | Promise<void>): ProviderFs & {
  reads: string[];
  closed: number;
} {
  const reads: string[] = [];
  const fs = {
    ...nodeFs,
    reads,
    closed: 0,
    open: async (path: string, flags: number): Promise<ProviderFileHandle> => {
      const handle = await nodeFs.open(path, flags);
      let n = 0;
      return new Proxy(handle, {
        get(target, prop) {
          if (prop === 'read')
            return async (...args: Parameters<ProviderFileHandle['read']>) => {
              const result = await target.read(...args);
              reads.push(path);
              await onRead(++n, path);
              return result;
            };
          if (prop === 'close') return () => (fs.closed++, target.close());
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
    },
  };
  return fs;
}

describe('searchFiles: a budget per search', () => {
  it('defaults to 20,000 files, 64 MiB and 5 s, and stops at none of them on a small folder', async () => {
    expect(SEARCH_DEFAULTS).toEqual({
      maxFiles: 20_000,
      maxBytes: 64 * 1024 * 1024,
      timeoutMs: 5_000,
    });
    const found = await searchFiles(createFilesystemProvider({ root: small }), 'needle');
    expect(found).toMatchObject({ scanned: 30, total: 30, bytes: 3000, truncated: false });
    expect(found.stopped).toBeUndefined();
    expect(found.hits.map((h) => h.file.path)).toEqual(['f25.txt']);
  });

  it('maxFiles: looks at that many files, then returns what it found and says why it stopped', async () => {
    const fs = readHookFs(() => undefined);
    const provider = createFilesystemProvider({ root: small, fs });
    const found = await searchFiles(provider, 'needle', { maxFiles: 10 });
    expect(found).toMatchObject({
      hits: [],
      scanned: 10,
      total: 30,
      stopped: { budget: 'maxFiles', limit: 10 },
    });
    expect(new Set(fs.reads).size).toBe(10);
    // Name matches are all found, whatever the budget: names cost no read.
    const byName = await searchFiles(provider, 'f2', { maxFiles: 3 });
    expect(byName.hits.map((h) => h.file.path)).toEqual(
      ['f20', 'f21', 'f22', 'f23', 'f24', 'f25', 'f26', 'f27', 'f28', 'f29'].map((f) => `${f}.txt`),
    );
    expect(byName.stopped).toEqual({ budget: 'maxFiles', limit: 3 });
  });

  it('maxBytes: reads no file that would go over it, and stops there', async () => {
    const fs = readHookFs(() => undefined);
    const provider = createFilesystemProvider({ root: small, fs, cacheBytes: 0, settleMs: 0 });
    const found = await searchFiles(provider, 'needle', { maxBytes: 1050 });
    expect(found).toMatchObject({
      hits: [],
      scanned: 11, // ten read (1,000 bytes); the eleventh would go over
      bytes: 1000,
      stopped: { budget: 'maxBytes', limit: 1050 },
    });
    expect(new Set(fs.reads).size).toBe(10);
  });

  it('maxBytes counts text taken from the cache too', async () => {
    const provider = createFilesystemProvider({ root: small });
    await searchFiles(provider, 'needle'); // fills the cache
    const found = await searchFiles(provider, 'needle', { maxBytes: 500 });
    expect(found).toMatchObject({ bytes: 500, stopped: { budget: 'maxBytes' } });
    expect(provider.cacheStats().hits).toBeGreaterThanOrEqual(5);
  });

  it('timeoutMs: checked between files (the clock moves on during a read)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fs = readHookFs((_n, path) => {
      if (path.endsWith('f03.txt')) vi.setSystemTime(Date.now() + 10_000);
    });
    const provider = createFilesystemProvider({ root: small, fs });
    await provider.ready();
    const found = await searchFiles(provider, 'needle', { timeoutMs: 1000 });
    expect(found).toMatchObject({
      scanned: 4,
      stopped: { budget: 'timeoutMs', limit: 1000 },
    });
    expect(new Set(fs.reads)).toHaveProperty('size', 4);
  });

  it('timeoutMs: checked between the steps of a large read, which stops after the first', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fs = readHookFs(() => void vi.setSystemTime(Date.now() + 10_000));
    const provider = createFilesystemProvider({ root: large, fs });
    await provider.ready();
    const found = await searchFiles(provider, 'needle', { timeoutMs: 1000 });
    expect(found).toMatchObject({
      hits: [],
      scanned: 1,
      bytes: 0,
      stopped: { budget: 'timeoutMs' },
    });
    expect(fs.reads).toHaveLength(1); // one step of 1 MiB out of four
    expect(fs.closed).toBe(1);
    expect(provider.cacheStats().entries).toBe(0);
    // Unhurried, the same read finds the needle at the end of the file.
    vi.useRealTimers();
    const unhurried = await searchFiles(createFilesystemProvider({ root: large }), 'needle');
    expect(unhurried.hits.map((h) => h.where)).toEqual(['content']);
  });

  it('a cancelled request stops a large read after the step in progress and rejects', async () => {
    const controller = new AbortController();
    const fs = readHookFs(() => controller.abort(new Error('cancelled by the client')));
    const provider = createFilesystemProvider({ root: large, fs });
    await expect(searchFiles(provider, 'needle', { signal: controller.signal })).rejects.toThrow(
      'cancelled by the client',
    );
    expect(fs.reads).toHaveLength(1);
    expect(fs.closed).toBe(1);
  });
});

describe('tool "search" and prompt "survey": the budget in the text', () => {
  function serve(options: Partial<ServeFolderOptions> = {}) {
    const server = createServer({ name: 'budget', version: '1' });
    const provider = serveFolder(server, { root: small, ...options });
    const conn = connectInMemory(server);
    return {
      provider,
      call: async (args: Record<string, unknown>) =>
        (await conn.send(modern('tools/call', { name: 'search', arguments: args }))) as Res,
      survey: async (query: string) =>
        (await conn.send(modern('prompts/get', { name: 'survey', arguments: { query } }))) as Res,
    };
  }

  it('says that it stopped early, which budget, and how many files of how many it looked at', async () => {
    const { call } = serve({ search: { maxFiles: 5 } });
    const none = await call({ query: 'needle' });
    expect(none.result?.isError).toBeUndefined();
    expect(none.result?.content?.[0]?.text).toMatch(
      /^No file name or text matches "needle" \(5 of 30 files searched\)\..* The search stopped early: it looked at its budget of 5 files after looking at 5 of 30 files/,
    );
    const some = await call({ query: 'f0' });
    expect(some.result?.content?.[0]?.text).toMatch(
      /^10 files match "f0" \(10 by name, 0 by text only\)\..*The search stopped early: it looked at its budget of 5 files/,
    );
  });

  it('names the byte budget and the time budget', async () => {
    const bytes = await serve({ search: { maxBytes: 1000 } }).call({ query: 'needle' });
    expect(bytes.result?.content?.[0]?.text).toMatch(
      /stopped early: it read its budget of 1000 B of text after looking at 11 of 30 files/,
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    const fs = readHookFs(() => void vi.setSystemTime(Date.now() + 10_000));
    const { call, provider } = serve({ fs, search: { timeoutMs: 250 } });
    await provider.ready();
    const time = await call({ query: 'needle' });
    expect(time.result?.content?.[0]?.text).toMatch(
      /stopped early: its time budget of 250 ms ran out after looking at 1 of 30 files/,
    );
  });

  it('the survey prompt says it too', async () => {
    const res = await serve({ search: { maxFiles: 2 } }).survey('f1');
    expect(JSON.stringify(res.result?.messages?.[0])).toMatch(
      /The search stopped early: it looked at its budget of 2 files after looking at 2 of 30 files/,
    );
  });
});

/** node:fs whose reads of f00.txt wait until `release()`; `inRead` resolves at the first. */
function blockingFs() {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let entered!: () => void;
  const inRead = new Promise<void>((r) => (entered = r));
  const fs = readHookFs(async (_n, path) => {
    if (!path.endsWith('f00.txt')) return;
    entered();
    await released;
  });
  return { fs, release, inRead };
}

/** Turns of the event loop: enough for anything not waiting on a read to settle. */
async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

describe('a read still pending at the end: the search does not wait for it', () => {
  it('at its time limit, answers what it has; the read closes its handle when it ends', async () => {
    const { fs, release, inRead } = blockingFs();
    const provider = createFilesystemProvider({ root: small, fs, cacheBytes: 0, settleMs: 0 });
    await provider.ready();
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const search = searchFiles(provider, 'f2', { timeoutMs: 1000, limit: 20 });
    await inRead;
    await vi.advanceTimersByTimeAsync(1000);
    const found = await search;
    // The ten name matches were read first; then f00.txt, still pending.
    expect(found).toMatchObject({ scanned: 11, stopped: { budget: 'timeoutMs', limit: 1000 } });
    expect(found.hits.map((h) => h.where)).toEqual(Array(10).fill('name'));
    expect(fs.closed).toBe(10);
    vi.useRealTimers();
    release();
    await vi.waitFor(() => expect(fs.closed).toBe(11));
  });

  it('a file whose read was left pending is not opened again by the next search', async () => {
    const { fs, release, inRead } = blockingFs();
    const provider = createFilesystemProvider({ root: small, fs, cacheBytes: 0, settleMs: 0 });
    await provider.ready();
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const first = searchFiles(provider, 'needle', { timeoutMs: 1000 });
    await inRead;
    await vi.advanceTimersByTimeAsync(1000);
    expect((await first).stopped).toEqual({ budget: 'timeoutMs', limit: 1000 });
    vi.useRealTimers();
    // f00.txt still hangs: the next search skips it and finds the needle in f25.txt.
    const second = await searchFiles(provider, 'needle');
    expect(second.hits.map((h) => h.file.path)).toEqual(['f25.txt']);
    expect(fs.reads.filter((p) => p.endsWith('f00.txt'))).toHaveLength(1);
    release();
    // Once that read settled, a search reads f00.txt again (once: the new read does not hang).
    await vi.waitFor(async () => {
      await searchFiles(provider, 'needle');
      expect(fs.reads.filter((p) => p.endsWith('f00.txt'))).toHaveLength(2);
    });
    provider.close();
  });

  it('at cancellation, rejects with its reason', async () => {
    const { fs, release, inRead } = blockingFs();
    const provider = createFilesystemProvider({ root: small, fs, cacheBytes: 0, settleMs: 0 });
    const controller = new AbortController();
    const search = searchFiles(provider, 'needle', { signal: controller.signal });
    await inRead;
    controller.abort(new Error('cancelled by the client'));
    await expect(search).rejects.toThrow('cancelled by the client');
    release();
    await vi.waitFor(() => expect(fs.closed).toBe(1));
  });
});

/** A turn of `gate` (a full queue is not expected where this is used). */
async function take(gate: SearchGate, deadline: number, signal?: AbortSignal) {
  const turn = await gate.acquire(deadline, signal);
  if (turn !== undefined && typeof turn !== 'function')
    throw new Error(`queue full: ${turn.limit}`);
  return turn as Release | undefined;
}

describe('concurrent searches: a cap, then a turn in order, never "busy"', () => {
  function serve(fs: ProviderFs, search: NonNullable<ServeFolderOptions['search']> = {}) {
    const server = createServer({ name: 'busy', version: '1' });
    serveFolder(server, { root: small, fs, cacheBytes: 0, settleMs: 0, search });
    const conn = connectInMemory(server);
    return {
      call: async (query: string) =>
        (await conn.send(modern('tools/call', { name: 'search', arguments: { query } }))) as Res,
      survey: async (query: string) =>
        (await conn.send(modern('prompts/get', { name: 'survey', arguments: { query } }))) as Res,
    };
  }

  it('beyond the cap (4 by default), waits for a turn and then runs: every search answers', async () => {
    const { fs, release, inRead } = blockingFs();
    const { call, survey } = serve(fs);
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const settled: string[] = [];
    const searches = Array.from({ length: 5 }, (_, i) =>
      call('needle').finally(() => settled.push(`search ${i}`)),
    );
    const prompt = survey('needle').finally(() => settled.push('survey'));
    await inRead;
    // The four turns reach their read through the thread pool: wait for them (a busy machine
    // takes longer), by the real clock, which the fake timers leave alone.
    const reading = () => fs.reads.filter((p) => p.endsWith('f00.txt')).length;
    const since = performance.now();
    while (reading() < 4 && performance.now() - since < 10_000) await turns(1);
    await turns();
    // Four read f00.txt; the fifth and the survey wait for a turn, without reading, for as long
    // as their time limit allows (5 s): longer than a short wait then "busy" would.
    await vi.advanceTimersByTimeAsync(4_000);
    vi.useRealTimers();
    expect(settled).toEqual([]);
    expect(fs.reads.filter((p) => p.endsWith('f00.txt'))).toHaveLength(4);
    release();
    for (const answer of await Promise.all(searches)) {
      expect(answer.result?.isError).toBeUndefined();
      expect(answer.result?.content?.[0]?.text).toMatch(/^1 file match "needle"/);
    }
    expect(JSON.stringify((await prompt).result?.messages)).toContain('f25.txt');
  });

  it('a search whose turn does not come within its time limit answers its name matches, stopped by it', async () => {
    const { fs, release, inRead } = blockingFs();
    const provider = createFilesystemProvider({ root: small, fs, cacheBytes: 0, settleMs: 0 });
    const gate = new SearchGate({ concurrency: 1 });
    const turn = (deadline: number, signal?: AbortSignal) => gate.acquire(deadline, signal);
    const first = searchFiles(provider, 'needle', { turn, timeoutMs: 60_000 });
    await inRead;
    const second = await searchFiles(provider, 'f2', { turn, timeoutMs: 20, limit: 3 });
    expect(second).toMatchObject({
      scanned: 0,
      bytes: 0,
      total: 30,
      truncated: true,
      stopped: { budget: 'timeoutMs', limit: 20 },
    });
    expect(second.hits.map((h) => [h.file.path, h.where])).toEqual([
      ['f20.txt', 'name'],
      ['f21.txt', 'name'],
      ['f22.txt', 'name'],
    ]);
    release();
    expect((await first).hits.map((h) => h.file.path)).toEqual(['f25.txt']);
  });
});

describe('SearchGate', () => {
  const FAR = () => Date.now() + 60_000;

  it('hands a released turn to the next waiter in order, drops cancelled waiters, and counts right', async () => {
    const gate = new SearchGate({ concurrency: 2 });
    const a = await take(gate, FAR());
    const b = await take(gate, FAR());
    const cancel = new AbortController();
    const cancelled = take(gate, FAR(), cancel.signal);
    const order: string[] = [];
    const c = take(gate, FAR()).finally(() => order.push('c'));
    const d = take(gate, FAR()).finally(() => order.push('d'));
    cancel.abort(new Error('gone'));
    await expect(cancelled).rejects.toThrow('gone');
    a?.();
    a?.(); // a second release is a no-op
    await turns();
    expect(order).toEqual(['c']);
    b?.();
    await turns();
    expect(order).toEqual(['c', 'd']);
    (await c)?.();
    (await d)?.();
    // All four ended: two turns are free at once again, a third waits.
    const free = [await take(gate, FAR()), await take(gate, FAR())];
    let third = false;
    void take(gate, FAR()).then(() => (third = true));
    await turns();
    expect(third).toBe(false);
    for (const release of free) release?.();
    await turns();
    expect(third).toBe(true);
  });

  it('past maxWaiting, one more gets no turn at once: its search answers its name matches, saying why', async () => {
    const gate = new SearchGate({ concurrency: 1, maxWaiting: 1 });
    const held = await take(gate, FAR());
    const waiting = take(gate, FAR());
    expect(await gate.acquire(FAR())).toEqual({ budget: 'maxWaiting', limit: 1 });
    const provider = createFilesystemProvider({ root: small, settleMs: 0 });
    const found = await searchFiles(provider, 'f25', {
      turn: (deadline, signal) => gate.acquire(deadline, signal),
    });
    expect(found.stopped).toEqual({ budget: 'maxWaiting', limit: 1 });
    expect(found.hits.map((h) => h.file.path)).toEqual(['f25.txt']);
    expect(stopNote(found)).toContain('it found 1 other searches waiting for a turn (maxWaiting)');
    held?.();
    (await waiting)?.();
    provider.close();
  });

  it('answers undefined once the deadline passed without a turn', async () => {
    vi.useFakeTimers();
    const gate = new SearchGate({ concurrency: 1 });
    const held = await take(gate, Date.now() + 100);
    const late = take(gate, Date.now() + 100);
    await vi.advanceTimersByTimeAsync(100);
    expect(await late).toBeUndefined();
    held?.();
    // The turn is free: the next one gets it at once.
    expect(await take(gate, Date.now())).toBeTypeOf('function');
  });
});
