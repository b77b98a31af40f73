import { describe, expect, it } from 'vitest';
import type { ContextEntry } from './context-assembly.js';
import { BYTES_PER_TOKEN, estimateTokens } from './token-estimate.js';

describe('estimateTokens', () => {
  it.each<[string, string | ContextEntry, number]>([
    ['empty string', '', 0],
    ['one byte rounds up', 'a', 1],
    ['four bytes', 'abcd', 1],
    ['five bytes', 'abcde', 2],
    ['UTF-8 bytes, not characters', 'ééé', 2],
    ['a text block', { type: 'text', text: 'x'.repeat(40) }, 10],
    ['a link not read: its pointer', { type: 'resource_link', uri: 'file:///a', name: 'abc' }, 3],
  ])('%s', (_name, input, tokens) => {
    expect(estimateTokens(input)).toBe(tokens);
  });

  it('uses 4 bytes a token', () => {
    expect(BYTES_PER_TOKEN).toBe(4);
  });
});
