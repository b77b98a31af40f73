/**
 * How the words of a query become clauses over an index's vocabularies (text and names): each
 * clause is required, and matches by any of its alternatives: the word itself, the longer words
 * it starts (a prefix), or, for a word the texts do not hold, the two parts of an identifier it
 * may be written as (`parseargs` for `parseArgs`); each weighted by idf and the kind of match.
 */
import { sortedHas, type Postings } from './postings.js';
import type { Vocabulary } from './vocabulary.js';

const NAME_BOOST = 3;
const PREFIX_WEIGHT = 0.5;
const SPLIT_WEIGHT = 0.8;
/** Shortest word that also matches as a prefix, and most terms one prefix expands to. */
const PREFIX_MIN = 3;
const PREFIX_CAP = 64;

/**
 * One way a query word matches: documents, and how each scores: BM25 of its count (text, with
 * `counts`) times `weight` (the term's idf and the kind of match), else `weight` alone.
 */
export interface Alternative {
  readonly ids: ArrayLike<number>;
  readonly length: number;
  readonly weight: number;
  readonly counts?: Uint8Array;
  readonly lines?: Uint16Array;
  readonly name: boolean;
}

export class QueryClauses {
  constructor(
    private readonly text: Vocabulary,
    private readonly names: Vocabulary,
    /** Files in the index now (for idf). */
    private readonly files: () => number,
  ) {}

  /** The clauses of one query word: each its alternatives, all clauses required. */
  of(terms: readonly string[]): Alternative[][] {
    if (terms.length > 1) {
      return terms.map((term, i) => this.alternatives(term, i === terms.length - 1, false));
    }
    return [this.alternatives(terms[0]!, true, true)];
  }

  private alternatives(term: string, prefix: boolean, split: boolean): Alternative[] {
    const out: Alternative[] = [];
    const add = (word: string, weight: number): void => {
      const text = this.text.postings(word);
      if (text && text.length > 0) out.push(this.textAlternative(text, weight));
      const name = this.names.postings(word);
      if (name && name.length > 0) out.push(this.nameAlternative(name, weight));
    };
    add(term, 1);
    if (prefix && term.length >= PREFIX_MIN) {
      for (const longer of this.text.withPrefix(term, PREFIX_CAP)) add(longer, PREFIX_WEIGHT);
      for (const longer of this.names.withPrefix(term, PREFIX_CAP)) {
        const name = this.names.postings(longer);
        if (name && name.length > 0) out.push(this.nameAlternative(name, PREFIX_WEIGHT));
      }
    }
    // Split into parts only a word the texts do not hold (`parseargs` for `parseArgs`): a file
    // with both halves anywhere is not a match for a word that exists as written.
    if (split && (this.text.postings(term)?.length ?? 0) === 0) {
      const joined = this.splitAlternative(term);
      if (joined) out.push(joined);
    }
    return out;
  }

  private idf(df: number): number {
    const n = this.files();
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  private textAlternative(list: Postings, weight: number): Alternative {
    const { ids, counts, lines, length } = list;
    return { ids, counts, lines, length, weight: this.idf(length) * weight, name: false };
  }

  private nameAlternative(list: Postings, weight: number): Alternative {
    const value = this.idf(list.length) * weight * NAME_BOOST;
    return { ids: list.ids, length: list.length, weight: value, name: true };
  }

  /**
   * A word the index may hold as parts of identifiers (`parseargs` for `parseArgs`): files
   * holding both halves of its best two-way split into known terms.
   */
  private splitAlternative(word: string): Alternative | undefined {
    for (let cut = word.length - 2; cut >= 2; cut--) {
      const head = this.text.postings(word.slice(0, cut));
      const tail = this.text.postings(word.slice(cut));
      if (!head || !tail || head.length === 0 || tail.length === 0) continue;
      const [small, large] = head.length <= tail.length ? [head, tail] : [tail, head];
      const ids: number[] = [];
      const smallIds = small.ids;
      const largeIds = large.ids;
      for (let i = 0; i < small.length; i++) {
        const id = smallIds[i]!;
        if (sortedHas(largeIds, large.length, id)) ids.push(id);
      }
      const value = (this.idf(head.length) + this.idf(tail.length)) * SPLIT_WEIGHT;
      return { ids, length: ids.length, weight: value, name: false };
    }
    return undefined;
  }
}

/** Postings of a clause in all (its alternatives'). */
export function sizeOf(alternatives: Alternative[]): number {
  let size = 0;
  for (const a of alternatives) size += a.length;
  return size;
}
