import { describe, expect, it } from 'vitest';
import { base64Length, decodedBase64Length, findBase64Problem, isBase64 } from './base64.js';

describe('findBase64Problem', () => {
  it.each([
    ['', undefined],
    ['AA==', undefined],
    ['AAA=', undefined],
    ['AAAA', undefined],
    ['aGVsbG8=', undefined],
  ])('accepts canonical %j', (value, expected) => {
    expect(findBase64Problem(value)).toEqual(expected);
  });

  it.each([
    ['AB==', 1, 'non-zero padding bits'],
    ['AAB=', 2, 'non-zero padding bits'],
    ['AA=A', 2, "'=' padding"],
    ['A', 1, 'not a multiple of 4'],
    ['AAAAA', 5, 'not a multiple of 4'],
    ['AA-_', 2, 'not in the base64 alphabet'],
    ['AA\nA', 2, 'not in the base64 alphabet'],
    ['AAA===', 3, "'=' padding"],
    ['é===', 0, 'not in the base64 alphabet'],
  ])('rejects %j at offset %i', (value, offset, reason) => {
    const problem = findBase64Problem(value);
    expect(problem?.offset).toBe(offset);
    expect(problem?.reason).toContain(reason);
  });

  it('agrees with Buffer on random payloads', () => {
    for (let n = 0; n < 64; n++) {
      const bytes = new Uint8Array(n).map(() => Math.floor(Math.random() * 256));
      expect(isBase64(Buffer.from(bytes).toString('base64'))).toBe(true);
    }
  });

  it('scans 64 MiB without a stack overflow and finds a late bad character', () => {
    const big = 'A'.repeat(64 * 1024 * 1024);
    expect(isBase64(big)).toBe(true);
    const bad = `${big.slice(0, -5)}*AAAA`;
    expect(findBase64Problem(bad)?.offset).toBe(big.length - 5);
  });
});

describe('base64Length', () => {
  it.each([
    [0, 0],
    [1, 4],
    [3, 4],
    [4, 8],
    [750_000, 1_000_000],
  ])('%i raw bytes cost %i on the wire', (raw, wire) => {
    expect(base64Length(raw)).toBe(wire);
    expect(Buffer.alloc(raw).toString('base64').length).toBe(wire);
  });
});

describe('decodedBase64Length', () => {
  it.each([
    ['', 0],
    ['aA==', 1],
    ['aGk=', 2],
    ['aGlt', 3],
    ['aGltYQ==', 4],
  ])('%j decodes to %i bytes', (text, n) => expect(decodedBase64Length(text)).toBe(n));
});
