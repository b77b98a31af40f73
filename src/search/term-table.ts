/**
 * The index's way from a term in a text to its postings while it adds a file: a hash table keyed
 * by the term's characters where they stand in the text (ASCII letters read lowercased), so that
 * a term already known costs no string and no map lookup; only a new one is made a string and
 * looked up (`resolve`). It holds the lists it was given: clear it when lists are dropped.
 */
import type { Postings } from './postings.js';

const EMPTY = 0;

export class TermTable {
  /** Entry number + 1 per slot (0: empty); a power of two, at most half full. */
  private slots = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 11);
  private terms: string[] = [];
  private lists: Postings[] = [];

  constructor(private readonly resolve: (term: string) => Postings) {}

  /** Terms known. */
  get size(): number {
    return this.terms.length;
  }

  /** The postings of entry `k` (see {@link entry}). */
  list(k: number): Postings {
    return this.lists[k]!;
  }

  /** The entry number of `source.slice(start, end)`, its ASCII letters lowercased. */
  entry(source: string, start: number, end: number): number {
    let hash = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) {
      let code = source.charCodeAt(i);
      if (code >= 65 && code <= 90) code += 32;
      hash = Math.imul(hash ^ code, 0x01000193);
    }
    const { slots, hashes, terms } = this;
    const mask = slots.length - 1;
    let slot = hash & mask;
    for (let entry = slots[slot]!; entry !== EMPTY; entry = slots[slot]!) {
      const k = entry - 1;
      if (hashes[k] === hash && same(terms[k]!, source, start, end)) return k;
      slot = (slot + 1) & mask;
    }
    const term = own(source.slice(start, end).toLowerCase());
    const list = this.resolve(term);
    const k = terms.length;
    if (k === this.hashes.length) this.grow();
    terms.push(term);
    this.lists.push(list);
    this.hashes[k] = hash;
    if ((k + 1) * 2 > this.slots.length) this.rehash();
    else slots[slot] = k + 1;
    return k;
  }

  /** Forgets every term (their lists may have been dropped). */
  clear(): void {
    this.slots = new Int32Array(1 << 12);
    this.hashes = new Int32Array(1 << 11);
    this.terms = [];
    this.lists = [];
  }

  private grow(): void {
    const hashes = new Int32Array(this.hashes.length * 2);
    hashes.set(this.hashes);
    this.hashes = hashes;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let k = 0; k < this.terms.length; k++) {
      let slot = this.hashes[k]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = k + 1;
    }
    this.slots = slots;
  }
}

/** Whether `term` is `source.slice(start, end)` with its ASCII letters lowercased. */
function same(term: string, source: string, start: number, end: number): boolean {
  if (term.length !== end - start) return false;
  for (let i = start, j = 0; i < end; i++, j++) {
    let code = source.charCodeAt(i);
    if (code >= 65 && code <= 90) code += 32;
    if (code !== term.charCodeAt(j)) return false;
  }
  return true;
}

/**
 * `term` as a string of its own: a slice of 13 characters or more is a view that keeps the whole
 * file's text alive, and a term is kept for the index's life. A property name is a copy.
 */
function own(term: string): string {
  return term.length < 13 ? term : Object.keys({ [term]: 0 })[0]!;
}
