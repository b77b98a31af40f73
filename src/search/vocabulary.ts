/**
 * The terms of one field, each with its postings, and their sorted order for prefix lookups
 * (new terms are merged into the order at the next lookup, not sorted again from scratch).
 */
import { Postings } from './postings.js';

export class Vocabulary {
  readonly lists = new Map<string, Postings>();
  private sorted: string[] = [];
  private added: string[] = [];
  private stale = false;

  /** The postings of `term`, created empty when `create`. */
  postings(term: string, create: true): Postings;
  postings(term: string, create?: false): Postings | undefined;
  postings(term: string, create = false): Postings | undefined {
    let list = this.lists.get(term);
    if (list === undefined && create) {
      list = new Postings();
      this.lists.set(term, list);
      this.added.push(term);
    }
    return list;
  }

  /** Forgets terms whose postings are empty (after a compaction). */
  dropEmpty(): void {
    for (const [term, list] of this.lists) if (list.length === 0) this.lists.delete(term);
    this.stale = true;
  }

  /** Takes the lists of a saved index (index-file.ts); sorted at the next lookup. */
  load(lists: Iterable<[string, Postings]>): void {
    for (const [term, list] of lists) this.lists.set(term, list);
    this.stale = true;
  }

  /** Sorts what was added now (after a build), so that the next prefix lookup does not. */
  prepare(): void {
    this.order();
  }

  /** Up to `cap` terms that start with `prefix` (longer than it), shortest first. */
  withPrefix(prefix: string, cap: number): string[] {
    const sorted = this.order();
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < sorted.length && out.length < cap; i++) {
      const term = sorted[i]!;
      if (!term.startsWith(prefix)) break;
      if (term !== prefix) out.push(term);
    }
    return out.sort((a, b) => a.length - b.length);
  }

  private order(): string[] {
    if (this.stale) {
      this.sorted = [...this.lists.keys()].sort();
      this.added = [];
      this.stale = false;
    } else if (this.added.length > 0) {
      const fresh = this.added.sort();
      const merged: string[] = [];
      let i = 0;
      let j = 0;
      while (i < this.sorted.length || j < fresh.length) {
        if (j >= fresh.length || (i < this.sorted.length && this.sorted[i]! < fresh[j]!)) {
          merged.push(this.sorted[i++]!);
        } else merged.push(fresh[j++]!);
      }
      this.sorted = merged;
      this.added = [];
    }
    return this.sorted;
  }
}
