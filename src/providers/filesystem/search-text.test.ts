import { describe, expect, it } from 'vitest';
import { escapeRegExp, passageIn, PIECE_CHARS, snippetAround } from './search-text.js';

const patternOf = (query: string) => new RegExp(escapeRegExp(query), 'iu');

/** passageIn on `text`, counting the pauses between pieces. */
async function find(text: string, query: string) {
  let pauses = 0;
  const passage = await passageIn(text, patternOf(query), 2 * query.length, () => {
    pauses++;
  });
  return { passage, pauses };
}

describe('passageIn', () => {
  it('matches a short text at once, without a promise or a pause', () => {
    const passage = passageIn('one\ntwo Needle three', patternOf('needle'), 12, () => {
      throw new Error('no pause in one piece');
    });
    expect(passage).toEqual({ snippet: 'one two Needle three', line: 2 });
  });

  it.each([
    ['before the first end', PIECE_CHARS - 10],
    ['across the first end', PIECE_CHARS - 3],
    ['right at the second piece', PIECE_CHARS],
    ['across the second end', 2 * PIECE_CHARS - 1],
    ['in the last piece', 3 * PIECE_CHARS + 5],
  ])('finds a match %s, at its index and line, pausing between pieces', async (_, at) => {
    const filler = 'x'.repeat(99) + '\n';
    const text = (filler.repeat(Math.ceil((at + 1000) / 100)).slice(0, at) + 'NEEDLE').padEnd(
      3 * PIECE_CHARS + 100,
      'y',
    );
    const { passage, pauses } = await find(text, 'needle');
    expect(passage?.line).toBe(1 + Math.floor(at / 100));
    expect(passage?.snippet).toBe(snippetAround(text, at, 6));
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(at / PIECE_CHARS));
  });

  it('finds the first of two matches when the first crosses a piece end', async () => {
    // "abab" at PIECE_CHARS - 2 crosses the end; another at PIECE_CHARS + 10 starts past it.
    const text = `${'z'.repeat(PIECE_CHARS - 2)}ABAB${'z'.repeat(8)}abab${'z'.repeat(PIECE_CHARS)}`;
    const { passage } = await find(text, 'abab');
    expect(passage?.snippet).toBe(snippetAround(text, PIECE_CHARS - 2, 4));
  });

  it('matches letters outside the basic plane, case-insensitively, across a piece end', async () => {
    const upper = '\u{10400}\u{10401}'; // DESERET CAPITAL LONG I, LONG E
    const lower = '\u{10428}\u{10429}';
    const text = `${'z'.repeat(PIECE_CHARS - 1)}${upper}${'z'.repeat(PIECE_CHARS)}`;
    const { passage } = await find(text, lower);
    expect(passage?.snippet).toContain(upper);
  });

  it('answers undefined when nothing matches, and stops when a pause throws', async () => {
    const text = 'q'.repeat(3 * PIECE_CHARS);
    expect((await find(text, 'needle')).passage).toBeUndefined();
    let pauses = 0;
    const stopped = passageIn(text, patternOf('needle'), 12, () => {
      if (++pauses === 2) throw new Error('time is up');
    });
    await expect(stopped).rejects.toThrow('time is up');
    expect(pauses).toBe(2);
  });
});
