import { describe, expect, it } from 'vitest';
import { KeyTable } from './key-table.js';

describe('KeyTable', () => {
  it('sets, gets, deletes and counts values by key', () => {
    const table = new KeyTable<number>();
    table.set('a', 1);
    table.set('b', 2);
    table.set('b', 3);
    expect(table.size).toBe(2);
    expect([table.get('a'), table.get('b'), table.get('c')]).toEqual([1, 3, undefined]);
    expect(table.delete('a')).toBe(true);
    expect(table.delete('a')).toBe(false);
    expect(table.has('a')).toBe(false);
    expect(table.size).toBe(1);
    table.clear();
    expect(table.size).toBe(0);
  });

  it('keeps a number apart from the string of its digits (JSON-RPC request ids)', () => {
    const table = new KeyTable<string, string | number>();
    table.set(1, 'number');
    table.set('1', 'string');
    expect([table.get(1), table.get('1')]).toEqual(['number', 'string']);
    expect(table.keys()).toHaveLength(2);
    expect(table.keys()).toContain(1);
    expect(table.keys()).toContain('1');
  });

  it('takes any string as a key, __proto__ and the empty string too', () => {
    const table = new KeyTable<string>();
    for (const key of ['__proto__', 'constructor', '', 'toString', 'n1', 's1']) table.set(key, key);
    for (const key of ['__proto__', 'constructor', '', 'toString', 'n1', 's1'])
      expect(table.get(key)).toBe(key);
    expect(table.size).toBe(6);
    expect(table.snapshot().sort()).toEqual([
      '',
      '__proto__',
      'constructor',
      'n1',
      's1',
      'toString',
    ]);
    expect(table.get('valueOf')).toBeUndefined();
  });

  it('takes an undefined value as a delete', () => {
    const table = new KeyTable<string | undefined>();
    table.set('a', 'x');
    table.set('a', undefined);
    expect(table.size).toBe(0);
    expect(table.has('a')).toBe(false);
  });
});
