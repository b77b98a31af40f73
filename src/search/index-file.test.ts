import { describe, expect, it } from 'vitest';
import { decodeIndex, encodeIndex } from './index-file.js';
import { TextIndex } from './text-index.js';
import { parseQuery } from './terms.js';

const ask = (index: TextIndex, query: string) =>
  index.search(parseQuery(query), { limit: 50 }).matches.map((m) => [m.path, m.where, m.line]);

describe('a saved index', () => {
  it('loads as the same index, with what was saved beside it', () => {
    const index = new TextIndex();
    for (let i = 0; i < 300; i++)
      index.add(`src/file${i}.ts`, `export function parseArgs${i}() {}\nshared word${i % 9}`);
    index.add('img/logo.png');
    index.remove('src/file7.ts');
    const bytes = encodeIndex(index, { root: '/r', versions: { a: '1:2' } });
    const loaded = decodeIndex(bytes);
    expect(loaded?.extra).toEqual({ root: '/r', versions: { a: '1:2' } });
    const again = loaded!.index;
    expect(again.size).toBe(300);
    for (const query of ['shared word3', 'parse args', 'logo', 'file7', 'parseargs12', 'shar']) {
      expect(ask(again, query), query).toEqual(ask(index, query));
    }
    // It goes on growing and shrinking like any index.
    again.add('src/new.ts', 'shared word3 fresh');
    again.remove('src/file3.ts');
    expect(ask(again, 'fresh')).toEqual([['src/new.ts', 'content', 1]]);
    expect(again.search(parseQuery('shared word3'), { limit: 1 }).total).toBe(
      index.search(parseQuery('shared word3'), { limit: 1 }).total,
    );
  });

  it('is refused when the bytes are not a saved index or are cut short', () => {
    const bytes = encodeIndex(new TextIndex(), null);
    expect(decodeIndex(new TextEncoder().encode('not an index at all'))).toBeUndefined();
    const full = new TextIndex();
    full.add('a.txt', 'alpha beta');
    const saved = encodeIndex(full, null);
    expect(decodeIndex(saved.subarray(0, saved.length - 3))).toBeUndefined();
    expect(decodeIndex(bytes)?.index.size).toBe(0);
  });
});
