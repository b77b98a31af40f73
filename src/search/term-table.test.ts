import { describe, expect, it } from 'vitest';
import { Postings } from './postings.js';
import { TermTable } from './term-table.js';

describe('TermTable', () => {
  it('finds a term by its characters in any text, ASCII letters read lowercased', () => {
    const made: string[] = [];
    const table = new TermTable((term) => (made.push(term), new Postings()));
    const a = table.entry('xx Parse yy', 3, 8);
    expect(table.entry('parse', 0, 5)).toBe(a);
    expect(table.entry('PARSER', 0, 5)).toBe(a);
    expect(table.entry('parser', 0, 6)).not.toBe(a);
    expect(made).toEqual(['parse', 'parser']);
  });

  it('keeps every term apart as it grows, and forgets them when cleared', () => {
    const lists = new Map<string, Postings>();
    const table = new TermTable((term) => {
      const list = new Postings();
      lists.set(term, list);
      return list;
    });
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);
    const entries = words.map((w) => table.entry(w, 0, w.length));
    expect(new Set(entries).size).toBe(words.length);
    words.forEach((w, i) => {
      expect(table.entry(w.toUpperCase(), 0, w.length)).toBe(entries[i]);
      expect(table.list(entries[i]!)).toBe(lists.get(w));
    });
    table.clear();
    expect(table.size).toBe(0);
    expect(table.entry('w0', 0, 2)).toBe(0);
    expect(lists.size).toBe(words.length);
  });
});
