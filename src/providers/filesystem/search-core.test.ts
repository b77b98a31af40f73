import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mimeFromName } from '../../content/mime.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import { SearchCore, type SearchFile } from './search-core.js';
import { entriesText } from './search-entries.js';

let dir: string;
let outside: string;

function put(rel: string, body: string | Buffer): SearchFile {
  const abs = path.join(dir, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, body);
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return { path: rel, size, mtimeMs: Date.now(), mimeType: mimeFromName(rel) ?? 'text/plain' };
}

function core(
  options: Partial<{ maxFileBytes: number; maxPhraseChecks: number; readTimeoutMs: number }> = {},
) {
  return new SearchCore({
    fs: nodeFs,
    root: realpathSync(dir),
    visibility: { hidden: false, ignore: new Set(['node_modules']) },
    refuseHardLinks: false,
    maxFileBytes: options.maxFileBytes ?? 1 << 20,
    readTimeoutMs: options.readTimeoutMs ?? 5_000,
    maxPhraseChecks: options.maxPhraseChecks ?? 100,
  });
}

const ask = (c: SearchCore, query: string, extra: { limit?: number; path?: string } = {}) =>
  c.search({ query, limit: extra.limit ?? 10, path: extra.path, listLimit: 50 });

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-search-core-'));
  outside = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-search-out-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('SearchCore', () => {
  it('indexes every listed text file and answers with the line and a snippet', async () => {
    const c = core();
    c.upsert(put('src/cli/args.ts', 'import x\n\nexport function parseArgs(argv) {}\n'));
    c.upsert(put('docs/guide.md', '# Guide\nUse parseArgs to read flags.\n'));
    c.upsert(put('img/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2])));
    await c.drained();
    expect(c.indexed).toBe(3);
    const answer = await ask(c, 'parseArgs');
    expect(answer.total).toBe(2);
    const args = answer.hits.find((h) => h.path === 'src/cli/args.ts');
    expect(args).toMatchObject({ where: 'name+content', line: 3 });
    expect(args?.snippet).toContain('parseArgs(argv)');
    expect((await ask(c, 'logo')).hits).toEqual([{ path: 'img/logo.png', where: 'name' }]);
  });

  it('reads with no time limit when readTimeoutMs is Infinity', async () => {
    const c = core({ readTimeoutMs: Number.POSITIVE_INFINITY });
    c.upsert(put('n.txt', 'a needle here'));
    await c.drained();
    expect((await ask(c, 'needle')).total).toBe(1);
  });

  it('checks quoted phrases in the text', async () => {
    const c = core();
    c.upsert(put('a.txt', 'the quick brown fox'));
    c.upsert(put('b.txt', 'brown the quick fox'));
    await c.drained();
    const answer = await ask(c, '"quick  BROWN"');
    expect(answer.hits.map((h) => h.path)).toEqual(['a.txt']);
    expect(answer.hits[0]).toMatchObject({ line: 1 });
    expect(answer.total).toBe(1);
    expect(answer.unchecked).toBe(0);
  });

  it('counts every phrase match it checked, past the limit', async () => {
    const c = core();
    for (let i = 0; i < 8; i++) c.upsert(put(`p${i}.txt`, i < 6 ? 'alpha beta' : 'beta alpha'));
    await c.drained();
    const answer = await c.search({ query: '"alpha beta"', limit: 3, listLimit: 4 });
    expect(answer.total).toBe(6);
    expect(answer.hits).toHaveLength(3);
    expect(answer.more.count).toBe(1);
    expect(answer.unchecked).toBe(0);
  });

  it('says how many phrase candidates it could not check', async () => {
    const c = core({ maxPhraseChecks: 3 });
    for (let i = 0; i < 8; i++) c.upsert(put(`f${i}.txt`, 'alpha gamma beta, never together'));
    await c.drained();
    const answer = await ask(c, '"alpha beta"');
    expect(answer.hits).toHaveLength(0);
    expect(answer.unchecked).toBe(5);
  });

  it('filters by a path glob', async () => {
    const c = core();
    c.upsert(put('src/a.ts', 'needle'));
    c.upsert(put('src/deep/b.ts', 'needle'));
    c.upsert(put('docs/c.md', 'needle'));
    await c.drained();
    const paths = async (glob: string) =>
      (await ask(c, 'needle', { path: glob })).hits.map((h) => h.path).sort();
    expect(await paths('src/**/*.ts')).toEqual(['src/a.ts', 'src/deep/b.ts']);
    expect(await paths('*.md')).toEqual([]);
    expect(await paths('**/*.md')).toEqual(['docs/c.md']);
  });

  it('indexes large text files by name only', async () => {
    const c = core({ maxFileBytes: 100 });
    c.upsert(put('big-notes.txt', `${'filler '.repeat(50)} secretword`));
    await c.drained();
    expect((await ask(c, 'secretword')).total).toBe(0);
    expect((await ask(c, 'notes')).hits).toEqual([{ path: 'big-notes.txt', where: 'name' }]);
  });

  it('reads through the guards: a symlink out of the folder is not indexed by its text', async () => {
    writeFileSync(path.join(outside, 'secret.txt'), 'topsecret');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'link.txt'));
    const c = core();
    c.upsert({ path: 'link.txt', size: 9, mtimeMs: 1, mimeType: 'text/plain' });
    await c.drained();
    expect((await ask(c, 'topsecret')).total).toBe(0);
  });

  it('follows changes: a new version replaces the old, a removed file is gone', async () => {
    const c = core();
    c.upsert(put('n.txt', 'before'));
    await c.drained();
    const changed = put('n.txt', 'after and more');
    c.upsert({ ...changed, mtimeMs: changed.mtimeMs + 1 });
    await c.drained();
    expect((await ask(c, 'before')).total).toBe(0);
    expect((await ask(c, 'after')).total).toBe(1);
    c.remove('n.txt');
    expect((await ask(c, 'after')).total).toBe(0);
    expect(c.size).toBe(0);
  });

  it('counts a changed file as not indexed until its new version is read', async () => {
    let hold: Promise<void> | undefined;
    let release = (): void => undefined;
    // Opens of n.txt wait while `hold` is set (a slow read of its new version).
    const fs: ProviderFs = {
      ...nodeFs,
      open: async (p, flags) => {
        if (path.basename(p) === 'n.txt' && hold) await hold;
        return nodeFs.open(p, flags);
      },
    };
    const c = new SearchCore({
      fs,
      root: realpathSync(dir),
      visibility: { hidden: false, ignore: new Set() },
      refuseHardLinks: false,
      maxFileBytes: 1 << 20,
      readTimeoutMs: 5_000,
      maxPhraseChecks: 100,
    });
    c.upsert(put('n.txt', 'before'));
    c.upsert(put('o.txt', 'other'));
    await c.drained();
    hold = new Promise((resolve) => (release = resolve));
    const changed = put('n.txt', 'after and more');
    c.upsert({ ...changed, mtimeMs: changed.mtimeMs + 1 });
    // Answers meanwhile say that not every listed file is indexed as it is now.
    const during = await ask(c, 'other');
    expect([during.indexed, during.listed]).toEqual([1, 2]);
    hold = undefined;
    release();
    await c.drained();
    const after = await ask(c, 'after');
    expect([after.total, after.indexed, after.listed]).toEqual([1, 2, 2]);
    expect((await ask(c, 'before')).total).toBe(0);
  });

  it('lists matches past the limit, best first, without snippets', async () => {
    const c = core();
    for (let i = 0; i < 12; i++) c.upsert(put(`m/${i}.txt`, 'common '.repeat(i + 1)));
    await c.drained();
    const answer = await c.search({ query: 'common', limit: 3, listLimit: 5 });
    expect(answer.hits).toHaveLength(3);
    expect(answer.total).toBe(12);
    const more = JSON.parse(`[${entriesText(answer.more.json)}]`) as Record<string, unknown>[];
    expect(answer.more).toMatchObject({ count: 2, names: 0 });
    expect(more.map((m) => m['name'])).toEqual(['m/8.txt', 'm/7.txt']);
    expect(more[0]).toEqual({ uri: 'file:///m/8.txt', name: 'm/8.txt', where: 'content', line: 1 });
  });
});
