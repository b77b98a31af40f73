import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { MemoryBus } from '../../server/change-bus.js';
import { serveFolder } from './folder-server.js';
import { FolderSearch } from './folder-search.js';
import { createFilesystemProvider } from './filesystem-provider.js';
import { nodeFs, type ProviderFileHandle, type ProviderFs } from './fs-types.js';

type Res = { result?: { content?: Array<{ type: string; text?: string; name?: string }> } };

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-folder-search-'));
  await writeFile(join(root, 'fast.txt'), 'the okapi is here');
  for (let i = 0; i < 3; i++) await writeFile(join(root, `slow${i}.txt`), `okapi number ${i}`);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** node's fs, except that opening a file `holds(name)` says yes to waits until `release()`. */
function holdingFs(holds: (name: string) => boolean = (name) => name.startsWith('slow')) {
  const held: Array<() => void> = [];
  const fs: ProviderFs = {
    ...nodeFs,
    open: (p, flags) =>
      holds(basename(p))
        ? new Promise<ProviderFileHandle>((resolve, reject) =>
            held.push(() => void nodeFs.open(p, flags).then(resolve, reject)),
          )
        : nodeFs.open(p, flags),
  };
  return { fs, release: () => held.splice(0).forEach((go) => go()), held: () => held.length };
}

/** Asks again (a few ms apart, 5 s at most) until `done(answer)`. */
async function until<T>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  let answer = await ask();
  for (let i = 0; i < 500 && !done(answer); i++) {
    await new Promise((r) => setTimeout(r, 10));
    answer = await ask();
  }
  return answer;
}

describe('the search while its index is being built', () => {
  it('answers from what is indexed, says how much, and finds the rest once built', async () => {
    let holding = true;
    const { fs, release, held } = holdingFs((name) => holding && name.startsWith('slow'));
    const server = createServer({ name: 'partial', version: '1' });
    const provider = serveFolder(server, {
      root,
      fs,
      // The listing's own checks open files too: only the index is held here.
      readTimeoutMs: 60_000,
      search: { firstBuildWaitMs: 0 },
    });
    await provider.ready();
    release();
    const conn = connectInMemory(server);
    const search = async () =>
      (
        (await conn.send(
          modern('tools/call', { name: 'search', arguments: { query: 'okapi' } }),
        )) as Res
      ).result?.content ?? [];
    const first = await until(search, (c) => c.some((b) => b.name === 'fast.txt'));
    expect(first[0]?.text).toMatch(
      /^1 file match "okapi" .*indexed 1 of 4 files; try again for the rest\.$/s,
    );
    expect(first.filter((b) => b.type === 'resource_link').map((b) => b.name)).toEqual([
      'fast.txt',
    ]);
    expect(held()).toBe(3);
    holding = false;
    release();
    const later = await until(search, (c) => !/still being built/.test(c[0]?.text ?? ''));
    expect(later[0]?.text).toMatch(/^4 files match "okapi"/);
    expect(later[0]?.text).not.toMatch(/still being built/);
    provider.close();
  });
});

describe('FolderSearch', () => {
  it('rejects searches once closed, and a closed provider closes its index', async () => {
    const provider = createFilesystemProvider({ root, fs: { ...nodeFs } });
    const index = new FolderSearch(provider);
    provider.attach(index);
    const answer = await index.search({ query: 'okapi', limit: 5 });
    expect(answer.total).toBe(4);
    provider.close();
    await expect(index.search({ query: 'okapi', limit: 5 })).rejects.toMatchObject({
      code: 'PROVIDER_CLOSED',
    });
  });

  it('counts the wait for an unwatched walk in its time limit', async () => {
    let hang = false;
    const fs: ProviderFs = {
      ...nodeFs,
      readdir: ((p: string, o: never) =>
        hang ? new Promise(() => undefined) : nodeFs.readdir(p, o)) as ProviderFs['readdir'],
    };
    const provider = createFilesystemProvider({ root, fs, rescanMs: 0 });
    const index = new FolderSearch(provider, { timeoutMs: 100 });
    await index.settled();
    expect((await index.search({ query: 'okapi', limit: 5 })).total).toBe(4);
    // Every listing is stale (rescanMs 0): the next search walks again, and the walk hangs.
    hang = true;
    await expect(index.search({ query: 'okapi', limit: 5 })).rejects.toMatchObject({
      code: 'SEARCH_TIMEOUT',
    });
    await index.close();
  });

  it('ends a search at its time limit', async () => {
    let holding = false;
    const { fs } = holdingFs(() => holding);
    const provider = createFilesystemProvider({ root, fs });
    const index = new FolderSearch(provider, { timeoutMs: 50, maxPhraseChecks: 10 });
    await index.settled();
    // A quoted phrase reads its candidates: held files keep the search past its limit.
    holding = true;
    await expect(index.search({ query: '"okapi number"', limit: 5 })).rejects.toMatchObject({
      code: 'SEARCH_TIMEOUT',
      message: expect.stringContaining('50 ms (timeoutMs)'),
    });
    await index.close();
  });
});

describe('an unwatched instance fed by the bus', () => {
  it('walks again on a change another instance announced, and its index finds the new file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-folder-search-bus-'));
    try {
      await writeFile(join(dir, 'a.md'), 'nothing here');
      const bus = new MemoryBus();
      const watched = createServer({ name: 'a', version: '1', bus });
      const quiet = createServer({ name: 'b', version: '1', bus });
      const a = serveFolder(watched, { root: dir, watch: true, watchDebounceMs: 20 });
      // A listing this young is never walked again by age: only the bus's event can do it.
      const b = serveFolder(quiet, { root: dir, watch: false, rescanMs: 3_600_000 });
      await Promise.all([a.ready(), b.ready()]);
      await until(async () => a.watching, Boolean);
      const conn = connectInMemory(quiet);
      const search = async () =>
        (
          (await conn.send(
            modern('tools/call', { name: 'search', arguments: { query: 'zebra' } }),
          )) as Res
        ).result?.content ?? [];
      expect((await search())[0]?.text).toMatch(/^No file name or text matches "zebra"/);
      await writeFile(join(dir, 'new.md'), 'a zebra');
      // No request to the unwatched instance: the event alone walks it again.
      await until(
        async () => b.listed('new.md'),
        (file) => file !== undefined,
      );
      expect(b.listed('new.md')).toBeDefined();
      const found = await until(search, (c) => c.some((x) => x.name === 'new.md'));
      expect(found.map((x) => x.name)).toContain('new.md');
      a.close();
      b.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('indexDir', () => {
  it('saves the index when the folder is closed, and the next run starts from it', async () => {
    const keep = await mkdtemp(join(tmpdir(), 'mcpkit-index-dir-'));
    try {
      const run = async () => {
        const provider = createFilesystemProvider({ root });
        const index = new FolderSearch(provider, { indexDir: keep });
        const answer = await index.search({ query: 'okapi', limit: 10 });
        await index.close();
        provider.close();
        return answer;
      };
      expect((await run()).total).toBe(4);
      const saved = (await readdir(keep)).filter((f) => f.endsWith('.bin'));
      expect(saved).toHaveLength(1);
      expect((await stat(join(keep, saved[0]!))).size).toBeGreaterThan(100);
      const again = await run();
      expect(again.total).toBe(4);
      expect(again.hits.map((h) => h.path).sort()).toEqual([
        'fast.txt',
        'slow0.txt',
        'slow1.txt',
        'slow2.txt',
      ]);
    } finally {
      await rm(keep, { recursive: true, force: true });
    }
  });
});
