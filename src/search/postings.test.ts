import { describe, expect, it } from 'vitest';
import { Postings, sortedHas } from './postings.js';

const listOf = (p: Postings) => ({
  ids: [...p.ids.subarray(0, p.length)],
  counts: [...p.counts.subarray(0, p.length)],
  lines: [...p.lines.subarray(0, p.length)],
});

describe('Postings', () => {
  it('grows from no room, caps counts and lines, and gives the room back when fitted', () => {
    const list = new Postings(0);
    for (let id = 0; id < 100; id++) list.push(id * 2, id === 5 ? 300 : 1, id === 7 ? 70_000 : id);
    list.bump();
    expect(list.length).toBe(100);
    expect(list.bytes).toBeGreaterThan(100 * 7);
    list.fit();
    expect(list.bytes).toBe(100 * 7);
    const { ids, counts, lines } = listOf(list);
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => i * 2));
    expect(counts[5]).toBe(255);
    expect(counts[99]).toBe(2);
    expect(lines[7]).toBe(0);
    expect(lines[8]).toBe(8);
    // Written again after a fit: the views are made anew over the same buffer.
    list.push(500, 3, 4);
    expect(listOf(list).ids.at(-1)).toBe(500);
    expect(list.has(500) && list.has(198) && !list.has(199)).toBe(true);
  });

  it('keeps what is alive, in order, and shrinks when most is dropped', () => {
    const list = new Postings();
    for (let id = 0; id < 64; id++) list.push(id, 1 + (id % 3), id + 1);
    list.fit();
    expect(list.keep((id) => id % 10 === 0)).toBe(7);
    expect(listOf(list)).toEqual({
      ids: [0, 10, 20, 30, 40, 50, 60],
      counts: [1, 2, 3, 1, 2, 3, 1],
      lines: [1, 11, 21, 31, 41, 51, 61],
    });
    expect(list.bytes).toBe(14 * 7);
    // Ids written through a view made after keep() land in the list (the index renumbers so).
    const ids = list.ids;
    for (let i = 0; i < list.length; i++) ids[i] = ids[i]! / 10;
    expect(listOf(list).ids).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('serves a loaded list from its arrays, and grows and compacts it like any other', () => {
    const list = Postings.of(
      new Uint32Array([1, 4, 9]),
      new Uint8Array([1, 2, 3]),
      new Uint16Array([5, 6, 7]),
    );
    list.fit(); // nothing to give back: the arrays stay
    expect(listOf(list)).toEqual({ ids: [1, 4, 9], counts: [1, 2, 3], lines: [5, 6, 7] });
    list.push(12, 4, 8);
    expect(listOf(list)).toEqual({ ids: [1, 4, 9, 12], counts: [1, 2, 3, 4], lines: [5, 6, 7, 8] });
    expect(list.keep((id) => id !== 4)).toBe(3);
    list.fit();
    expect(listOf(list)).toEqual({ ids: [1, 9, 12], counts: [1, 3, 4], lines: [5, 7, 8] });
  });

  it('sortedHas looks up within the first length ids only', () => {
    const ids = new Uint32Array([2, 4, 8, 16, 99]);
    expect([2, 4, 8, 16].every((id) => sortedHas(ids, 4, id))).toBe(true);
    expect(sortedHas(ids, 4, 99)).toBe(false);
    expect(sortedHas(ids, 4, 3)).toBe(false);
    expect(sortedHas(ids, 0, 2)).toBe(false);
  });
});
