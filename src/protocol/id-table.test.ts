import { describe, expect, it } from 'vitest';
import { IdTable } from './id-table.js';

describe('IdTable', () => {
  it('sets, gets, takes and counts values by id', () => {
    const table = new IdTable<string>();
    table.set(1, 'a');
    table.set(2, 'b');
    table.set(2, 'B');
    expect(table.size).toBe(2);
    expect([table.get(1), table.get(2), table.get(3)]).toEqual(['a', 'B', undefined]);
    expect(table.has(1)).toBe(true);
    expect(table.take(1)).toBe('a');
    expect(table.take(1)).toBeUndefined();
    expect(table.has(1)).toBe(false);
    expect(table.delete(2)).toBe(true);
    expect(table.delete(2)).toBe(false);
    expect(table.size).toBe(0);
    const maybe = new IdTable<string | undefined>();
    maybe.set(3, 'x');
    maybe.set(3, undefined);
    expect([maybe.has(3), maybe.size]).toEqual([false, 0]);
  });

  it('keeps ids that meet in a slot apart (an old straggler and the ids after it)', () => {
    const table = new IdTable<number>(4);
    table.set(5, 5); // held, while ids far past it come and go
    for (let id = 6; id < 10_000; id++) {
      table.set(id, id);
      expect(table.get(5)).toBe(5);
      expect(table.take(id)).toBe(id);
    }
    expect(table.size).toBe(1);
    expect(table.snapshot()).toEqual([5]);
  });

  it('grows past its first size and finds every id again', () => {
    const table = new IdTable<number>(2);
    const ids = Array.from({ length: 500 }, (_, i) => i * 37 + 11);
    for (const id of ids) table.set(id, -id);
    expect(table.size).toBe(500);
    for (const id of ids) expect(table.get(id)).toBe(-id);
    expect(table.snapshot().sort((a, b) => a - b)).toEqual(
      ids.map((id) => -id).sort((a, b) => a - b),
    );
    table.clear();
    expect(table.size).toBe(0);
    expect(table.get(11)).toBeUndefined();
  });

  it('takes ids up to 2^31 - 1 and refuses others by name', () => {
    const table = new IdTable<string>();
    table.set(0x7fffffff, 'last');
    table.set(0, 'first');
    expect([table.get(0x7fffffff), table.get(0)]).toEqual(['last', 'first']);
    // -1 marks an empty slot: it is no id, in an empty slot (the last one) or a full one.
    const empty = new IdTable<string>();
    expect([empty.has(-1), empty.get(-1), empty.take(-1), empty.delete(-1)]).toEqual([
      false,
      undefined,
      undefined,
      false,
    ]);
    expect(empty.size).toBe(0);
    expect([table.has(-1), table.get(-1), table.take(-1), table.delete(-1)]).toEqual([
      false,
      undefined,
      undefined,
      false,
    ]);
    expect(table.size).toBe(2);
    for (const bad of [-1, 0x80000000, 1.5, Number.NaN])
      expect(() => table.set(bad, 'x')).toThrow(/IdTable id is a whole number/);
  });
});
