import { describe, expect, it } from 'vitest';
import { FolderUris } from './folder-uris.js';
import { moreEntries } from './search-entries.js';

describe('moreEntries', () => {
  const uris = new FolderUris();
  const uriOf = (p: string): string => uris.uriOf(p);

  it('writes each match as JSON.stringify writes its artifact entry, and counts name matches', () => {
    const matches = [
      { path: 'a/b.ts', score: 3, where: 'name+content' as const, line: 4 },
      { path: 'notes[1] "q".md', score: 2, where: 'content' as const, line: 70_000 },
      { path: 'c\u00e9.txt', score: 1, where: 'name' as const },
    ];
    const more = moreEntries(matches, uriOf, true);
    expect(JSON.parse(`[${more.json}]`)).toEqual(
      matches.map((m) => ({
        uri: uriOf(m.path),
        name: m.path,
        where: m.where,
        ...(m.line !== undefined ? { line: m.line } : {}),
      })),
    );
    expect(more.json).toBe(
      matches
        .map((m) =>
          JSON.stringify({
            uri: uriOf(m.path),
            name: m.path,
            where: m.where,
            ...(m.line !== undefined ? { line: m.line } : {}),
          }),
        )
        .join(','),
    );
    expect(more).toMatchObject({ count: 3, names: 2 });
  });

  it('leaves lines out when told (a phrase search: the index line is not the phrase)', () => {
    const more = moreEntries([{ path: 'x', score: 1, where: 'content', line: 2 }], uriOf, false);
    expect(more.json).toBe('{"uri":"file:///x","name":"x","where":"content"}');
  });

  it('is empty for no matches', () => {
    expect(moreEntries([], uriOf, true)).toEqual({ json: '', count: 0, names: 0 });
  });
});
