import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../search/terms.js';
import { firstMatch, phraseAt, snippetAround } from './search-text.js';

describe('firstMatch', () => {
  it('finds the first word where a word or identifier part starts, with its line', () => {
    const text = 'one\nconcatenate\nthe cat sat\nparseArgs here\n';
    expect(firstMatch(text, parseQuery('cat'))).toEqual({
      line: 3,
      snippet: expect.stringContaining('the cat sat'),
    });
    expect(firstMatch(text, parseQuery('args'))?.line).toBe(4);
    expect(firstMatch(text, parseQuery('parseArgs'))?.line).toBe(4);
  });

  it('falls back to a match inside a word, and to the first phrase', () => {
    expect(firstMatch('a\nbobcat', parseQuery('cat'))?.line).toBe(2);
    expect(firstMatch('x\ny\nquick  brown fox', parseQuery('"quick brown"'))?.line).toBe(3);
    expect(firstMatch('nothing here', parseQuery('absent'))).toBeUndefined();
  });
});

describe('phraseAt', () => {
  it('ignores case and runs of whitespace, and treats the phrase literally', () => {
    expect(phraseAt('say Hello\n\tWorld.', 'hello world')).toBe(4);
    expect(phraseAt('a.b', 'a.b')).toBe(0);
    expect(phraseAt('axb', 'a.b')).toBe(-1);
  });
});

describe('snippetAround', () => {
  it('collapses whitespace and marks what was cut', () => {
    const text = `${'x'.repeat(100)} the   needle\n is here ${'y'.repeat(100)}`;
    const snippet = snippetAround(text, text.indexOf('needle'), 6);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('the needle is here');
  });
});
