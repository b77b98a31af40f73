import { describe, expect, it } from 'vitest';
import { TextIndex } from './text-index.js';
import { parseQuery, pathTerms, termsOf } from './terms.js';

const paths = (index: TextIndex, query: string, limit = 10): string[] =>
  index.search(parseQuery(query), { limit }).matches.map((m) => m.path);

function indexOf(files: Record<string, string | undefined>): TextIndex {
  const index = new TextIndex();
  for (const [path, text] of Object.entries(files)) index.add(path, text);
  return index;
}

describe('terms', () => {
  it.each([
    ['parseArgs(x)', ['parse', 'args', 'x']],
    ['HTMLParser2 utf8Decode', ['html', 'parser2', 'utf8', 'decode']],
    ['snake_case_name', ['snake', 'case', 'name']],
    ['ÉtéCafé naïve', ['été', 'café', 'naïve']],
    ['a-b.c/d', ['a', 'b', 'c', 'd']],
  ])('%s', (text, terms) => {
    expect(termsOf(text)).toEqual(terms);
  });

  it('cuts very long terms', () => {
    expect(termsOf('x'.repeat(500))[0]).toHaveLength(64);
  });

  it('splits a path at separators and case changes', () => {
    expect(pathTerms('src/cli/parseArgs.test.ts')).toEqual([
      'src',
      'cli',
      'parse',
      'args',
      'test',
      'ts',
    ]);
  });

  it('keeps at most 32 words of a query and 8 terms of a word', () => {
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(parseQuery(many).words).toHaveLength(32);
    expect(parseQuery('aB'.repeat(20)).words[0]?.terms).toHaveLength(8);
  });

  it('parses phrases, words and identifiers', () => {
    const query = parseQuery('Alpha "beta  gamma" parseArgs "solo" alpha "open end');
    expect(query.words.map((w) => w.text)).toEqual([
      'Alpha',
      'beta',
      'gamma',
      'parseArgs',
      'solo',
      'open',
      'end',
    ]);
    expect(query.words.find((w) => w.text === 'parseArgs')?.terms).toEqual(['parse', 'args']);
    expect(query.phrases).toEqual(['beta gamma', 'open end']);
  });
});

describe('TextIndex', () => {
  const files = {
    'src/args.ts': 'export function parseArgs(argv) { return argv }',
    'src/snake.py': 'def snake_case_name(): pass',
    'docs/zebrafish.md': 'Notes about the zebrafish and its stripes',
    'docs/horse.md': 'A horse, not a zebra. The zebra is elsewhere.',
    'data/logo.png': undefined,
    'notes/plain.txt': 'nothing to see here',
  };

  it('finds a file with the most clauses a query can have (32 words of 8 terms: 256)', () => {
    // 485 characters: within the search tool's 500. Each word: its own first term, then a, aa...
    const firsts = Array.from(
      { length: 32 },
      (_, i) => `q${'abcdefghijklmnopqrstuvwxyz'[i % 26]}${i < 26 ? '' : 'x'}`,
    );
    const query = firsts.map((first) => `${first}AAaAAaAAaAAa`).join(' ');
    expect(query.length).toBeLessThanOrEqual(500);
    const parsed = parseQuery(query);
    expect(parsed.words.flatMap((w) => w.terms)).toHaveLength(256);
    const index = indexOf({ 'doc.txt': `${firsts.join(' ')} a aa`, 'other.txt': 'a aa' });
    expect(paths(index, query)).toEqual(['doc.txt']);
  });

  it('matches whole words case-insensitively', () => {
    expect(paths(indexOf(files), 'HORSE')).toEqual(['docs/horse.md']);
  });

  it('matches word prefixes', () => {
    expect(paths(indexOf(files), 'zebra').sort()).toEqual(['docs/horse.md', 'docs/zebrafish.md']);
  });

  it('ranks an exact word above a prefix match', () => {
    const index = indexOf({ 'a.txt': 'the zebrafish swims', 'b.txt': 'the zebra runs' });
    expect(paths(index, 'zebra')).toEqual(['b.txt', 'a.txt']);
  });

  it('never ranks many longer words above the word itself', () => {
    const index = indexOf({
      'a.txt': 'zebra zebra zebra zebra zebra zebra zebra zebra filler',
      'b.txt': 'zebras zebraish zebrafish zebrawood zebrano zebrine zebroid filler',
    });
    expect(paths(index, 'zebra')).toEqual(['a.txt', 'b.txt']);
  });

  it('requires every word', () => {
    expect(paths(indexOf(files), 'zebra stripes')).toEqual(['docs/zebrafish.md']);
    expect(paths(indexOf(files), 'zebra parse')).toEqual([]);
  });

  it('finds identifiers by their parts and joined', () => {
    const index = indexOf(files);
    expect(paths(index, 'parse args')).toEqual(['src/args.ts']);
    expect(paths(index, 'parseargs')).toEqual(['src/args.ts']);
    expect(paths(index, 'parseArgs')).toEqual(['src/args.ts']);
    expect(paths(index, 'snake case')).toEqual(['src/snake.py']);
    expect(paths(index, 'snake_case_name')).toEqual(['src/snake.py']);
  });

  it('splits a word into indexed parts only when no text holds it as written', () => {
    const index = indexOf({ 'a.txt': 'we went in, to sleep', 'b.txt': 'walk into it' });
    expect(paths(index, 'into')).toEqual(['b.txt']);
    expect(paths(indexOf({ 'a.txt': 'we went in, to sleep' }), 'into')).toEqual(['a.txt']);
  });

  it('answers across many compactions without its scratch growing (every match found)', () => {
    const index = new TextIndex();
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 300; i++)
        index.add(`r/${i}.txt`, `word${i} round${round} ${'x '.repeat(300)}`);
      expect(index.search(parseQuery(`round${round}`), { limit: 1 }).total).toBe(300);
    }
  });

  it('finds a file by a word of its name or path only', () => {
    const index = indexOf(files);
    expect(paths(index, 'logo')).toEqual(['data/logo.png']);
    expect(paths(index, 'notes plain')).toEqual(['notes/plain.txt']);
    const match = index.search(parseQuery('logo'), { limit: 1 }).matches[0];
    expect(match?.where).toBe('name');
  });

  it('boosts a name match above a text match', () => {
    const index = indexOf({
      'a/mention.md': 'the widget is described elsewhere, widget widget',
      'b/widget.md': 'see above',
    });
    expect(paths(index, 'widget')).toEqual(['b/widget.md', 'a/mention.md']);
    const where = index.search(parseQuery('widget'), { limit: 2 }).matches.map((m) => m.where);
    expect(where).toEqual(['name', 'content']);
  });

  it('says where a file matched', () => {
    const index = indexOf({ 'docs/zebra.md': 'a zebra' });
    expect(index.search(parseQuery('zebra'), { limit: 1 }).matches[0]?.where).toBe('name+content');
  });

  it('filters by path and counts every match', () => {
    const index = indexOf(files);
    const answer = index.search(parseQuery('zebra'), {
      limit: 10,
      filter: (p) => p.endsWith('.md') && p.includes('fish'),
    });
    expect(answer.matches.map((m) => m.path)).toEqual(['docs/zebrafish.md']);
    expect(answer.total).toBe(1);
  });

  it('replaces and removes files', () => {
    const index = indexOf(files);
    index.add('docs/horse.md', 'now about ponies');
    expect(paths(index, 'zebra')).toEqual(['docs/zebrafish.md']);
    expect(paths(index, 'ponies')).toEqual(['docs/horse.md']);
    expect(index.remove('docs/horse.md')).toBe(true);
    expect(index.remove('docs/horse.md')).toBe(false);
    expect(paths(index, 'ponies')).toEqual([]);
    expect(index.size).toBe(5);
  });

  it('keeps answering right across compactions', () => {
    const index = new TextIndex();
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 3000; i++) {
        index.add(`f/${i}.txt`, `common word${i} round${round} ${'filler '.repeat(30)}`);
      }
    }
    expect(index.size).toBe(3000);
    expect(paths(index, 'word1234')).toEqual(['f/1234.txt']);
    expect(paths(index, 'round0')).toEqual([]);
    expect(index.search(parseQuery('round3 common'), { limit: 5 }).total).toBe(3000);
    expect(index.stats().postings).toBe(3000 * 7);
  });

  it('returns the best `limit` matches in order, past the heap threshold', () => {
    const index = new TextIndex();
    for (let i = 0; i < 500; i++)
      index.add(`d/${String(i).padStart(3, '0')}.txt`, 'hit '.repeat(1 + (i % 50)));
    const best = index.search(parseQuery('hit'), { limit: 7 });
    expect(best.total).toBe(500);
    const scores = best.matches.map((m) => m.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const all = index.search(parseQuery('hit'), { limit: 500 }).matches.slice(0, 7);
    expect(best.matches).toEqual(all);
  });

  it('gives back growth room without losing anything, and grows again', () => {
    const index = new TextIndex();
    for (let i = 0; i < 2000; i++) index.add(`g/${i}.txt`, `shared word${i % 7}`);
    const before = index.stats().bytes;
    index.fit();
    expect(index.stats().bytes).toBeLessThan(before);
    expect(index.search(parseQuery('shared'), { limit: 1 }).total).toBe(2000);
    index.add('g/new.txt', 'shared word3');
    expect(index.search(parseQuery('shared word3'), { limit: 1000 }).total).toBe(287);
  });

  it('keeps the first line where a query word occurs', () => {
    const index = indexOf({ 'a.txt': 'one\ntwo zebra\nthree\nzebra okapi', 'okapi.txt': 'x' });
    const [match] = index.search(parseQuery('okapi zebra'), { limit: 1 }).matches;
    expect(match).toMatchObject({ path: 'a.txt', line: 2 });
    const named = index.search(parseQuery('okapi'), { limit: 2 }).matches;
    expect(named.find((m) => m.path === 'okapi.txt')?.line).toBeUndefined();
  });

  it('answers nothing for an empty query or an unknown word', () => {
    const index = indexOf(files);
    expect(index.search(parseQuery('  '), { limit: 5 })).toEqual({ matches: [], total: 0 });
    expect(paths(index, 'zebra qqqunknown')).toEqual([]);
  });
});
