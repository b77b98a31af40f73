// A search shares the event loop: it yields while it scans (cached texts included), so that
// timers, other requests and a part walk run meanwhile, and it checks its deadline and its
// cancellation at each yield. Nothing here measures time: the scans are made long (a query the
// regular expression engine is slow to rule out, over 8 MiB of text) and the assertions are about
// what ran before what.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectInMemory } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { createFilesystemProvider, type FilesystemProvider } from './filesystem-provider.js';
import { serveFolder } from './folder-server.js';
import { PIECE_CHARS } from './search-text.js';
import { searchFiles } from './search.js';

/** Matches nothing, and takes the engine long to rule out on the text below. */
const QUERY = 'hay hay hay hay hayX';
const LINE = `${'hay '.repeat(25)}\n`;

let base: string;
/** 64 texts of 128 KiB (each one piece), and a 4 MiB binary to walk in parts. */
let many: string;
/** One 6 MiB text: many pieces. */
let long: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-search-yield-'));
  many = join(base, 'many');
  long = join(base, 'long');
  await mkdir(many);
  await mkdir(long);
  const text = LINE.repeat(Math.floor((128 * 1024) / LINE.length));
  for (let i = 0; i < 64; i++)
    await writeFile(join(many, `t${String(i).padStart(2, '0')}.txt`), text);
  await writeFile(join(many, 'walk.bin'), Buffer.alloc(4 * 1024 * 1024, 7));
  await writeFile(join(long, 'long.txt'), LINE.repeat(Math.floor((6 * 1024 * 1024) / LINE.length)));
  expect(text.length).toBeLessThan(PIECE_CHARS);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Calls `then` (once, from a setImmediate) when the scan first looks at a file's text. */
function onScan(provider: FilesystemProvider, then: () => void): void {
  let seen = false;
  const first = (): void => {
    if (!seen) setImmediate(then);
    seen = true;
  };
  const cached = provider.cachedContents.bind(provider);
  const contents = provider.contents.bind(provider);
  vi.spyOn(provider, 'cachedContents').mockImplementation((...args) => (first(), cached(...args)));
  vi.spyOn(provider, 'contents').mockImplementation((...args) => (first(), contents(...args)));
}

const cases = [
  // The case measured in the issue: texts a read would serve from the cache, with no I/O.
  { name: 'cached texts of many files', root: () => many, cached: true, files: 65 },
  { name: 'files read through the provider', root: () => many, cached: false, files: 65 },
  { name: 'one long cached text, in pieces', root: () => long, cached: true, files: 1 },
];

/** A provider over the case's folder, its texts cached when the case says so. */
async function providerFor(c: (typeof cases)[number]): Promise<FilesystemProvider> {
  const provider = createFilesystemProvider({
    root: c.root(),
    watch: c.cached,
    settleMs: 0,
    ...(c.cached ? {} : { cacheBytes: 0 }),
  });
  cleanups.push(() => provider.close());
  await provider.ready();
  if (c.cached) {
    await searchFiles(provider, QUERY);
    const first = (await provider.files()).find((f) => f.path.endsWith('.txt'));
    expect(provider.cachedContents(first?.path ?? '')).toBeDefined();
  }
  return provider;
}

describe.each(cases)('searchFiles over $name', (c) => {
  it('lets a timer and an immediate scheduled once it scans run before it ends', async () => {
    const provider = await providerFor(c);
    const order: string[] = [];
    onScan(provider, () => {
      order.push('immediate');
      setTimeout(() => order.push('timer'), 0);
    });
    const found = await searchFiles(provider, QUERY);
    order.push('search');
    expect(order).toEqual(['immediate', 'timer', 'search']);
    expect(found).toMatchObject({ hits: [], scanned: c.files, total: c.files });
    expect(found.stopped).toBeUndefined();
  });

  it('ends at its time limit with what it found, saying so, when the clock passes it mid-scan', async () => {
    const provider = await providerFor(c);
    vi.useFakeTimers({ toFake: ['Date'] });
    onScan(provider, () => vi.setSystemTime(Date.now() + 10_000));
    const found = await searchFiles(provider, QUERY, { timeoutMs: 1000 });
    expect(found).toMatchObject({ hits: [], stopped: { budget: 'timeoutMs', limit: 1000 } });
    if (c.files > 1) expect(found.scanned).toBeLessThan(c.files);
    else expect(found).toMatchObject({ scanned: 1 });
  });

  it('ends with the reason of a cancellation that comes mid-scan', async () => {
    const provider = await providerFor(c);
    const controller = new AbortController();
    onScan(provider, () => controller.abort(new Error('cancelled by the client')));
    await expect(searchFiles(provider, QUERY, { signal: controller.signal })).rejects.toThrow(
      'cancelled by the client',
    );
  });
});

describe('serveFolder: four searches at once', () => {
  type Res = { result?: { content?: Array<{ text?: string }>; contents?: unknown[] } };

  it('each answers; server/discover and a part walk sent once they scan make progress meanwhile', async () => {
    const server = createServer({ name: 'yield', version: '1' });
    const provider = serveFolder(server, { root: many, watch: true, settleMs: 0 });
    cleanups.push(() => provider.close());
    await provider.ready();
    const conn = connectInMemory(server);
    const send = async (method: string, params: Record<string, unknown>) =>
      (await conn.send(modern(method, params))) as Res;
    // Distinct queries: none is answered from a memo of another.
    const search = (i: number) =>
      send('tools/call', { name: 'search', arguments: { query: `${QUERY}${i}` } });
    await search(-1); // fills the cache

    const ended: string[] = [];
    let others!: Promise<void>;
    onScan(provider, () => {
      others = (async () => {
        const discover = await send('server/discover', {});
        expect(discover.result).toBeDefined();
        ended.push('discover');
        for (const offset of [0, 1024 * 1024]) {
          const uri = `file:///walk.bin?offset=${offset}&length=1048576`;
          expect((await send('resources/read', { uri })).result?.contents).toHaveLength(1);
          ended.push(`part ${offset}`);
        }
      })();
    });
    const searches = Array.from({ length: 4 }, (_, i) =>
      search(i).then((res) => (ended.push(`search ${i}`), res)),
    );
    for (const res of await Promise.all(searches))
      expect(res.result?.content?.[0]?.text).toMatch(/^No file name or text matches "hay hay/);
    await others;
    // Progress while they scan: discover before any search ends, the walk's first part before
    // the last one does (each step of a part read waits behind the searches' 2 ms slices).
    expect(ended[0]).toBe('discover');
    expect(ended.indexOf('part 0')).toBeLessThan(ended.indexOf('search 3'));
    expect(ended).toContain('part 1048576');
  });
});
