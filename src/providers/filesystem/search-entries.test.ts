import { describe, expect, it } from 'vitest';
import { FolderUris } from './folder-uris.js';
import { asciiJson, entriesText, moreEntries } from './search-entries.js';

describe('moreEntries', () => {
  const uris = new FolderUris();
  const uriOf = (p: string): string => uris.uriOf(p);

  it('writes each match as JSON.stringify writes its artifact entry (in ASCII), and counts name matches', () => {
    const matches = [
      { path: 'a/b.ts', score: 3, where: 'name+content' as const, line: 4 },
      { path: 'notes[1] "q".md', score: 2, where: 'content' as const, line: 70_000 },
      { path: 'c\u00e9.txt', score: 1, where: 'name' as const },
    ];
    const more = moreEntries(matches, uriOf, true);
    const json = entriesText(more.json);
    expect(JSON.parse(`[${json}]`)).toEqual(
      matches.map((m) => ({
        uri: uriOf(m.path),
        name: m.path,
        where: m.where,
        ...(m.line !== undefined ? { line: m.line } : {}),
      })),
    );
    expect(json).toBe(
      matches
        .map((m) =>
          JSON.stringify({
            uri: uriOf(m.path),
            name: m.path,
            where: m.where,
            ...(m.line !== undefined ? { line: m.line } : {}),
          }).replace('\u00e9', '\\u00e9'),
        )
        .join(','),
    );
    expect(/^[\x20-\x7e]*$/.test(json)).toBe(true);
    expect(more).toMatchObject({ count: 3, names: 2 });
  });

  it('leaves lines out when told (a phrase search: the index line is not the phrase)', () => {
    const more = moreEntries([{ path: 'x', score: 1, where: 'content', line: 2 }], uriOf, false);
    expect(entriesText(more.json)).toBe('{"uri":"file:///x","name":"x","where":"content"}');
  });

  it('is empty for no matches', () => {
    const more = moreEntries([], uriOf, true);
    expect(more).toMatchObject({ count: 0, names: 0 });
    expect(more.json.length).toBe(0);
  });

  it('grows past its first guess of the room a thousand long paths need', () => {
    const long = Array.from({ length: 50 }, (_, i) => ({
      path: `${'d/'.repeat(200)}f${i}.ts`,
      score: 1,
      where: 'content' as const,
    }));
    const json = entriesText(moreEntries(long, uriOf, true).json);
    expect((JSON.parse(`[${json}]`) as { name: string }[]).map((e) => e.name)).toEqual(
      long.map((m) => m.path),
    );
  });
});

describe('asciiJson', () => {
  it('escapes every character past U+007E, surrogate pairs included, to the same JSON value', () => {
    const value = { s: 'caf\u00e9 … \u{1f600} \u007f ok', n: 1 };
    const json = asciiJson(value);
    expect(/^[\x20-\x7e]*$/.test(json)).toBe(true);
    expect(JSON.parse(json)).toEqual(value);
    expect(asciiJson({ a: 'plain' })).toBe(JSON.stringify({ a: 'plain' }));
  });
});
