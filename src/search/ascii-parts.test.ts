import { describe, expect, it } from 'vitest';
import { forEachAsciiPart } from './ascii-parts.js';

const PATTERN = /[A-Z]+(?![a-z])[0-9]*|[A-Z]?[a-z0-9]+/g;

function byPattern(text: string, max: number): [string, number][] {
  const out: [string, number][] = [];
  for (const found of text.matchAll(PATTERN)) {
    const line = text.slice(0, found.index).split('\n').length;
    out.push([found[0].slice(0, max).toLowerCase(), line]);
  }
  return out;
}

function byScan(text: string, max: number): [string, number][] {
  const out: [string, number][] = [];
  forEachAsciiPart(text, max, (start, end, line) =>
    out.push([text.slice(start, end).toLowerCase(), line]),
  );
  return out;
}

describe('forEachAsciiPart', () => {
  it('splits identifiers as the pattern does', () => {
    const text = 'parseArgs HTMLParser2 snake_case_name\nABC1def X Ab aB 123abc A1b2C3 ÀB\n\nend_';
    expect(byScan(text, 64)).toEqual(byPattern(text, 64));
    expect(byScan(text, 64).slice(0, 4)).toEqual([
      ['parse', 1],
      ['args', 1],
      ['html', 1],
      ['parser2', 1],
    ]);
  });

  it('gives the same parts and lines as the pattern on random ASCII', () => {
    const alphabet = 'aZbY09_ \n-.AbCxyzQ(){}';
    let seed = 27;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 300; round++) {
      let text = '';
      const n = Math.floor(rand() * 200);
      for (let i = 0; i < n; i++) text += alphabet[Math.floor(rand() * alphabet.length)];
      expect(byScan(text, 5)).toEqual(byPattern(text, 5));
    }
  });
});
