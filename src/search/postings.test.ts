import { describe, expect, it } from 'vitest';
import { packLists, Postings } from './postings.js';

function listOf(docs: [number, number, number][]): Postings {
  const list = new Postings();
  for (const [id, count, line] of docs) list.push(id, count, line);
  return list;
}

const contents = (list: Postings): [number, number, number][] =>
  Array.from({ length: list.length }, (_, i) => [list.ids[i]!, list.counts[i]!, list.lines[i]!]);

describe('packLists', () => {
  it('moves lists into shared slabs, exactly as long, with the same postings', () => {
    const a = listOf([
      [1, 2, 3],
      [4, 5, 6],
      [7, 1, 9],
    ]);
    const b = listOf([[2, 1, 1]]);
    const before = [contents(a), contents(b)];
    expect(a.ids.length).toBeGreaterThan(a.length);
    packLists([a, b]);
    expect([contents(a), contents(b)]).toEqual(before);
    expect([a.packed, b.packed]).toEqual([true, true]);
    expect(a.ids.length).toBe(3);
    expect(a.ids.buffer).toBe(b.ids.buffer);
    expect(a.lines.buffer).toBe(b.lines.buffer);
  });

  it('leaves packed lists where they are, and a packed list that grows takes arrays of its own', () => {
    const a = listOf([[1, 1, 1]]);
    packLists([a]);
    const slab = a.ids.buffer;
    const b = listOf([[5, 1, 1]]);
    packLists([a, b]);
    expect(a.ids.buffer).toBe(slab);
    expect(b.ids.buffer).not.toBe(slab);
    a.push(9, 2, 7);
    expect(a.packed).toBe(false);
    expect(contents(a)).toEqual([
      [1, 1, 1],
      [9, 2, 7],
    ]);
    expect(contents(b)).toEqual([[5, 1, 1]]);
  });

  it('keeps documents in place when a packed list drops some', () => {
    const a = listOf([
      [1, 1, 1],
      [2, 1, 2],
      [3, 1, 3],
    ]);
    const b = listOf([[8, 1, 1]]);
    packLists([a, b]);
    expect(a.keep((id) => id !== 2)).toBe(2);
    expect(contents(a)).toEqual([
      [1, 1, 1],
      [3, 1, 3],
    ]);
    expect(contents(b)).toEqual([[8, 1, 1]]);
  });
});
