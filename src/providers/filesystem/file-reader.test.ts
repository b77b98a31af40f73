import { randomBytes } from 'node:crypto';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByteLruCache } from './content-cache.js';
import { ContentStore, readContents, type ContentsOutcome } from './file-reader.js';

/** One store per cache, as a provider has. */
const stores = new Map<ByteLruCache<FileContents>, ContentStore>();
function storeOf(cache: ByteLruCache<FileContents>): ContentStore {
  let store = stores.get(cache);
  if (!store) stores.set(cache, (store = new ContentStore(cache)));
  return store;
}
import { nodeFs, type ProviderFileHandle, type ProviderFs } from './fs-types.js';
import type { FileContents } from './read-file.js';
import type { Containment } from './resolve.js';

let root: string;
let within: Containment;
const QUOTES = '"'.repeat(1000); // 1000 bytes, 2002 on the wire
const BIG = randomBytes(100 * 1024);
const LONG = `# Notes\n${'a "quoted" line, é\n'.repeat(5000)}`;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-file-reader-')));
  within = { root, visibility: { hidden: false, ignore: new Set() } };
  await writeFile(join(root, 'quotes.txt'), QUOTES);
  await writeFile(join(root, 'big.bin'), BIG);
  await writeFile(join(root, 'long.md'), LONG);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Gated {
  fs: ProviderFs;
  opens: () => number;
  /** Settles when the first caller's stat began: a caller started after it is not the first. */
  firstStat: Promise<void>;
}

/**
 * node:fs where the first caller's read starts before the other `callers` resolve the path,
 * and no read goes on until every caller resolved it: they all meet the first read in flight.
 * `handle` may wrap each opened handle.
 */
function gatedFs(
  callers: number,
  handle: (h: ProviderFileHandle) => ProviderFileHandle = (h) => h,
): Gated {
  let stats = 0;
  let resolved = 0;
  let opens = 0;
  let statted!: () => void;
  const firstStat = new Promise<void>((resolve) => (statted = resolve));
  let opened!: () => void;
  const firstOpen = new Promise<void>((resolve) => (opened = resolve));
  let everyone!: () => void;
  const allResolved = new Promise<void>((resolve) => (everyone = resolve));
  return {
    opens: () => opens,
    firstStat,
    fs: {
      ...nodeFs,
      settleMs: 0,
      stat: async (path) => {
        statted();
        if (stats++ > 0) await firstOpen;
        const result = await nodeFs.stat(path);
        // A little after the last stat, not a turn after: on a loaded machine the others' next
        // step (joining the read in flight) may take longer than one turn of the loop.
        if (++resolved === callers) setTimeout(everyone, 20);
        return result;
      },
      open: async (path, flags) => {
        opens++;
        opened();
        await allResolved;
        return handle(await nodeFs.open(path, flags));
      },
    },
  };
}

/**
 * Opens made by one more read of `name` once the shared read settled, the cache emptied: none
 * would mean it joined a flight that should have left the table.
 */
async function opensOfLaterRead(
  { fs, opens }: Gated,
  cache: ByteLruCache<FileContents>,
  name: string,
  limitBytes = Infinity,
): Promise<number> {
  cache.clear();
  const before = opens();
  await readContents(fs, within, storeOf(cache), name, limitBytes).catch(() => undefined);
  return opens() - before;
}

const ok = (outcome: ContentsOutcome): FileContents => {
  if (outcome.kind !== 'ok') throw new Error(`expected ok, got ${outcome.kind}`);
  return outcome.contents;
};

describe('readContents: one read for concurrent misses', () => {
  it('reads and encodes a file once for every caller that missed it at once', async () => {
    const gated = gatedFs(20);
    const { fs, opens } = gated;
    const cache = new ByteLruCache<FileContents>(1 << 20);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        readContents(fs, within, storeOf(cache), 'big.bin', Infinity),
      ),
    );
    expect(opens()).toBe(1);
    const first = ok(outcomes[0] as ContentsOutcome);
    expect(Buffer.from(first.blob ?? '', 'base64').equals(BIG)).toBe(true);
    for (const outcome of outcomes) expect(ok(outcome)).toBe(first);
    expect(await opensOfLaterRead(gated, cache, 'big.bin')).toBeGreaterThan(0);
    cache.clear();
  });

  it('applies each caller’s own limit to what the shared read got', async () => {
    const { fs, opens, firstStat } = gatedFs(2);
    const cache = new ByteLruCache<FileContents>(0); // nothing cached: the flight is all there is
    // The second caller starts once the first one's stat began, so that the first reads: which
    // of two realpaths ends first is the thread pool's choice.
    const first = readContents(fs, within, storeOf(cache), 'quotes.txt', Infinity);
    await firstStat;
    const [wide, narrow] = await Promise.all([
      first,
      readContents(fs, within, storeOf(cache), 'quotes.txt', 1500),
    ]);
    expect(opens()).toBe(1);
    expect(ok(wide as ContentsOutcome).text).toBe(QUOTES);
    expect(narrow).toMatchObject({ kind: 'too-large', size: 1000, wireBytes: 2002 });
  });

  it('reads again for a caller with a larger limit than the read it met could fit', async () => {
    const gated = gatedFs(2);
    const { fs, opens, firstStat } = gated;
    const cache = new ByteLruCache<FileContents>(0);
    const first = readContents(fs, within, storeOf(cache), 'quotes.txt', 1500);
    await firstStat; // the narrow caller reads (see above)
    const [narrow, wide] = await Promise.all([
      first,
      readContents(fs, within, storeOf(cache), 'quotes.txt', 3000),
    ]);
    expect(narrow).toMatchObject({ kind: 'too-large', wireBytes: 2002 });
    expect(ok(wide as ContentsOutcome).text).toBe(QUOTES);
    expect(opens()).toBe(2);
    expect(await opensOfLaterRead(gated, cache, 'quotes.txt', 1500)).toBeGreaterThan(0);
  });

  it('applies each caller’s maxSize, and lets a read with a checkpoint read alone', async () => {
    const { fs, opens } = gatedFs(2);
    const cache = new ByteLruCache<FileContents>(0);
    const checkpoint = (): void => undefined;
    // The maxSize caller is refused from its size before any open: it stays off the gate,
    // which would otherwise wait for an open from it.
    const outcomes = await Promise.all([
      readContents(fs, within, storeOf(cache), 'quotes.txt', Infinity),
      readContents(nodeFs, within, storeOf(cache), 'quotes.txt', Infinity, { maxSize: 999 }),
      readContents(fs, within, storeOf(cache), 'quotes.txt', Infinity, { checkpoint }),
    ]);
    expect(ok(outcomes[0] as ContentsOutcome).text).toBe(QUOTES);
    expect(outcomes[1]).toMatchObject({ kind: 'too-large', size: 1000 });
    expect(ok(outcomes[2] as ContentsOutcome).text).toBe(QUOTES);
    expect(opens()).toBe(2);
  });

  it('rejects every caller when the shared read fails, and leaves nothing in flight', async () => {
    const failing = (h: ProviderFileHandle): ProviderFileHandle =>
      new Proxy(h, {
        get(target, prop) {
          if (prop === 'read')
            return () =>
              Promise.reject(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    const gated = gatedFs(5, failing);
    const { fs, opens } = gated;
    const cache = new ByteLruCache<FileContents>(1 << 20);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        readContents(fs, within, storeOf(cache), 'big.bin', Infinity),
      ),
    );
    expect(opens()).toBe(1);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'EIO' });
    }
    expect(await opensOfLaterRead(gated, cache, 'big.bin')).toBeGreaterThan(0);
    expect(cache.stats().entries).toBe(0);
  });

  it('answers "changed" to every caller when the file keeps changing under the read', async () => {
    let tick = 0;
    const moving = (h: ProviderFileHandle): ProviderFileHandle =>
      new Proxy(h, {
        get(target, prop) {
          if (prop === 'stat')
            return async () => Object.assign(await target.stat(), { mtimeMs: ++tick });
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    const gated = gatedFs(4, moving);
    const { fs, opens } = gated;
    const cache = new ByteLruCache<FileContents>(1 << 20);
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        readContents(fs, within, storeOf(cache), 'quotes.txt', Infinity),
      ),
    );
    expect(opens()).toBe(1);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ kind: 'changed' });
    expect(await opensOfLaterRead(gated, cache, 'quotes.txt')).toBeGreaterThan(0);
  });
});
