import { describe, expect, it } from 'vitest';
import { boundaryAtOrBefore, sequenceLength, textPartEnd } from './utf8-cut.js';

const bytes = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('sequenceLength', () => {
  it.each([
    [0x41, 1],
    [0x0a, 1],
    [0xc3, 2],
    [0xe2, 3],
    [0xf0, 4],
    [0x80, 1], // a continuation byte starts nothing
    [0xc0, 1], // never valid
    [0xff, 1],
  ])('lead 0x%s takes %i byte(s)', (lead, n) => {
    expect(sequenceLength(lead)).toBe(n);
  });
});

describe('boundaryAtOrBefore', () => {
  // "aé€😀b": a(0) é(1-2) €(3-5) 😀(6-9) b(10)
  const s = bytes('aé€😀b');
  it.each([
    [0, 0],
    [1, 1],
    [2, 1],
    [3, 3],
    [4, 3],
    [5, 3],
    [6, 6],
    [7, 6],
    [8, 6],
    [9, 6],
    [10, 10],
    [11, 11], // the end
  ])('position %i -> %i', (at, expected) => {
    expect(boundaryAtOrBefore(s, at)).toBe(expected);
    // Idempotent: the end of one part, read again as the start of the next, moves nowhere.
    expect(boundaryAtOrBefore(s, expected)).toBe(expected);
  });

  it('never goes below its floor, and leaves bytes that are not UTF-8 alone', () => {
    expect(boundaryAtOrBefore(s, 8, 7)).toBe(8);
    expect(boundaryAtOrBefore(Buffer.from([0x41, 0x80, 0x80, 0x80, 0x80]), 4)).toBe(4);
    expect(boundaryAtOrBefore(Buffer.from([0x41, 0xc3, 0x41]), 2)).toBe(2);
  });
});

describe('textPartEnd', () => {
  it('ends after the last newline when it lies in the second half', () => {
    const b = bytes('aaaa\nbbbbbbbb\ncc');
    expect(textPartEnd(b, 0, 16)).toBe(14);
  });

  it('ignores a newline in the first half and cuts at a character boundary instead', () => {
    const b = bytes('a\nbbbbbbbbbbbbbbébb');
    // 'é' is at 16-17: a cut at 17 would split it.
    expect(textPartEnd(b, 0, 17)).toBe(16);
  });

  it('always keeps one whole character, even past the end it was given', () => {
    const b = bytes('😀😀');
    expect(textPartEnd(b, 0, 1)).toBe(4);
    expect(textPartEnd(b, 4, 6)).toBe(8);
  });
});
