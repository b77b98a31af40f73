/**
 * An inverted index of files by name and text, held in typed arrays (five bytes a posting):
 * the measured engines (docs/search-index.md) need three to ten times the memory for a
 * 100,000-file repository. Files are added, replaced and removed one at a time; removed ones are
 * skipped at once and compacted away later. Ranking is BM25 over the text, with name matches
 * boosted. Phrases are not checked here (the index keeps no text): see {@link ParsedQuery}.
 */
import type { Postings } from './postings.js';
import { QueryClauses, sizeOf } from './query-clauses.js';
import { TermTable } from './term-table.js';
import { forEachTermIn, pathTerms, type ParsedQuery } from './terms.js';
import { topBy } from './top.js';
import { Vocabulary } from './vocabulary.js';

/** Where a file matched every word. */
export type MatchPlace = 'name' | 'content' | 'name+content';

export interface IndexMatch {
  readonly path: string;
  readonly score: number;
  readonly where: MatchPlace;
  /** The first line where a word of the query occurs in the text (when it matched there). */
  readonly line?: number;
}

export interface IndexSearchOptions {
  /** Most matches returned, best first. */
  readonly limit: number;
  /** Only files whose root-relative path passes. */
  readonly filter?: (path: string) => boolean;
}

export interface IndexAnswer {
  readonly matches: IndexMatch[];
  /** Every file that matched (`matches` is the best of them). */
  readonly total: number;
}

const K1 = 1.2;
const B = 0.75;
/** A list this many times longer than the files left is probed for them, not read through. */
const PROBE_RATIO = 8;

/** The parts of an index (compacted: every file present), to save it and load it again. */
export interface IndexState {
  readonly paths: readonly string[];
  readonly lengths: Uint32Array;
  readonly distinct: Uint32Array;
  readonly tokens: number;
  readonly text: ReadonlyMap<string, Postings>;
  readonly names: ReadonlyMap<string, Postings>;
}

export class TextIndex {
  private readonly text = new Vocabulary();
  private readonly names = new Vocabulary();
  private readonly table = new TermTable((term) => this.text.postings(term, true));
  private readonly clauses = new QueryClauses(this.text, this.names, () => this.size);
  /** By term number, for the file being added: its count and first line, and whether seen. */
  private seen = new Uint32Array(0);
  private seenCount = new Uint32Array(0);
  private seenLine = new Uint32Array(0);
  private fileStamp = 0;
  private readonly touched: number[] = [];
  private paths: (string | undefined)[] = [];
  private lengths = new Uint32Array(1024);
  private distinct = new Uint32Array(1024);
  private readonly byPath = new Map<string, number>();
  private tokens = 0;
  private postingCount = 0;
  private deadPostings = 0;
  private generation = 0;
  private stamp = new Uint32Array(0);
  /** Clauses a file is in so far: up to 256 (32 words of 8 terms), past a byte. */
  private level = new Uint16Array(0);
  private place = new Uint8Array(0);
  private scores = new Float64Array(0);
  private firstLine = new Uint32Array(0);
  private bestText = new Float64Array(0);
  private bestName = new Float64Array(0);
  private candidates = new Uint32Array(0);
  private aliveIds = new Uint32Array(0);
  private touchedIds = new Uint32Array(0);

  /** Files indexed. */
  get size(): number {
    return this.byPath.size;
  }

  has(path: string): boolean {
    return this.byPath.has(path);
  }

  /** Indexes `path` by name, and by `text` when given (a binary file has none); replaces. */
  add(path: string, text?: string): void {
    this.remove(path);
    const id = this.paths.length;
    this.paths.push(path);
    this.byPath.set(path, id);
    if (id >= this.lengths.length) {
      this.lengths = grown(this.lengths, id);
      this.distinct = grown(this.distinct, id);
    }
    // A file's terms are counted by their number (term-table.ts) in arrays of this index, small
    // and hot, then added to their lists once each: a text's words touch no list.
    let length = 0;
    let distinct = 0;
    if (text !== undefined) {
      const { table, touched } = this;
      const stamp = ++this.fileStamp;
      forEachTermIn(text, (source, start, end, line) => {
        const k = table.entry(source, start, end);
        if (k >= this.seen.length) this.growSeen(table.size);
        if (this.seen[k] === stamp) this.seenCount[k]!++;
        else {
          this.seen[k] = stamp;
          this.seenCount[k] = 1;
          this.seenLine[k] = line;
          touched.push(k);
        }
        length++;
      });
      distinct = touched.length;
      for (const k of touched) table.list(k).push(id, this.seenCount[k]!, this.seenLine[k]);
      touched.length = 0;
    }
    const nameTerms = new Set(pathTerms(path));
    for (const term of nameTerms) this.names.postings(term, true).push(id, 1);
    this.lengths[id] = length;
    this.distinct[id] = distinct + nameTerms.size;
    this.tokens += length;
    this.postingCount += distinct + nameTerms.size;
  }

  private growSeen(size: number): void {
    const capacity = Math.max(1024, size * 2);
    const grow = (from: Uint32Array): Uint32Array<ArrayBuffer> => {
      const to = new Uint32Array(capacity);
      to.set(from);
      return to;
    };
    this.seen = grow(this.seen);
    this.seenCount = grow(this.seenCount);
    this.seenLine = grow(this.seenLine);
  }

  /** Drops `path`; whether it was indexed. */
  remove(path: string): boolean {
    const id = this.byPath.get(path);
    if (id === undefined) return false;
    this.byPath.delete(path);
    this.paths[id] = undefined;
    this.tokens -= this.lengths[id]!;
    this.deadPostings += this.distinct[id]!;
    if (this.deadPostings > 65_536 && this.deadPostings * 4 > this.postingCount) this.compact();
    return true;
  }

  /** The index's parts (it is compacted first), for index-file.ts. */
  state(): IndexState {
    if (this.deadPostings > 0) this.compact();
    const n = this.paths.length;
    return {
      paths: this.paths as string[],
      lengths: this.lengths.subarray(0, n),
      distinct: this.distinct.subarray(0, n),
      tokens: this.tokens,
      text: this.text.lists,
      names: this.names.lists,
    };
  }

  /** An index made of saved parts. */
  static of(state: IndexState): TextIndex {
    const index = new TextIndex();
    const n = state.paths.length;
    index.paths = [...state.paths];
    state.paths.forEach((path, id) => index.byPath.set(path, id));
    index.lengths = grown(state.lengths, Math.max(n, 1023));
    index.distinct = grown(state.distinct, Math.max(n, 1023));
    index.tokens = state.tokens;
    for (let id = 0; id < n; id++) index.postingCount += state.distinct[id]!;
    index.text.load(state.text);
    index.names.load(state.names);
    return index;
  }

  /** Gives back the room the lists keep for growth, and sorts the terms (once a build is done). */
  fit(): void {
    for (const vocabulary of [this.text, this.names]) {
      for (const list of vocabulary.lists.values()) list.fit();
      vocabulary.prepare();
    }
  }

  /** Memory held by the postings and the document table, in bytes (approximate). */
  stats(): { files: number; terms: number; postings: number; bytes: number } {
    let bytes = this.lengths.byteLength + this.distinct.byteLength + this.paths.length * 8;
    for (const vocabulary of [this.text, this.names]) {
      for (const [term, list] of vocabulary.lists) bytes += list.bytes + term.length * 2 + 80;
    }
    const terms = this.text.lists.size + this.names.lists.size;
    return { files: this.size, terms, postings: this.postingCount - this.deadPostings, bytes };
  }

  /** Files holding every word of `query` (in name or text), best first. */
  search(query: ParsedQuery, options: IndexSearchOptions): IndexAnswer {
    const clauses = query.words.flatMap((word) => this.clauses.of(word.terms));
    if (clauses.length === 0 || clauses.some((c) => c.length === 0)) {
      return { matches: [], total: 0 };
    }
    clauses.sort((a, b) => sizeOf(a) - sizeOf(b));
    const last = clauses.length;
    this.scratch();
    const generation = ++this.generation;
    // Files touched, and those still in, live in this index's typed arrays: a search for common
    // words visits tens of thousands of files, and arrays of that size made per search were
    // garbage that only a full collection frees (the worker's heap grew by hundreds of MiB under
    // four searches at once).
    const { stamp, level, place, scores, firstLine, lengths, candidates } = this;
    let candidateCount = 0;
    const average = Math.max(1, this.tokens / Math.max(1, this.size));
    const { bestText, bestName } = this;
    // Files still in (every clause so far): a later clause is checked against them alone.
    let alive = this.aliveIds;
    let aliveCount = 0;
    let touched = this.touchedIds;
    for (let k = 0; k < clauses.length; k++) {
      const alternatives = clauses[k]!;
      // A clause scores its best text alternative and its best name one (the exact word, or a
      // longer word it starts): many prefix variants never outrank the word itself.
      let touchedCount = 0;
      if (k > 0 && aliveCount > 1) alive.subarray(0, aliveCount).sort();
      for (const alternative of alternatives) {
        const { ids, length, weight, counts, lines, name } = alternative;
        const bit = name ? 1 : 2;
        const visit = (at: number, id: number): void => {
          const was = level[id]!;
          if (was !== k && was !== k + 1) return;
          if (was === k) {
            level[id] = k + 1;
            bestText[id] = 0;
            bestName[id] = 0;
            touched[touchedCount++] = id;
          }
          place[id] = place[id]! | bit;
          if (name) bestName[id] = Math.max(bestName[id]!, weight);
          else if (counts === undefined) bestText[id] = Math.max(bestText[id]!, weight);
          else {
            const tf = counts[at]!;
            const norm = 1 - B + (B * lengths[id]!) / average;
            const score = (weight * tf * (K1 + 1)) / (tf + K1 * norm);
            bestText[id] = Math.max(bestText[id]!, score);
            const line = lines![at]!;
            const known = firstLine[id]!;
            if (line > 0 && (known === 0 || line < known)) firstLine[id] = line;
          }
        };
        if (k > 0 && aliveCount * PROBE_RATIO < length) {
          // Few files left and a long list (two common words): look each file up in the list
          // (galloping from the last one found) instead of reading the whole list.
          let at = 0;
          for (let i = 0; i < aliveCount; i++) {
            const id = alive[i]!;
            at = seek(ids, length, at, id);
            if (at >= length) break;
            if (ids[at] === id && stamp[id] === generation) visit(at, id);
          }
          continue;
        }
        for (let at = 0; at < length; at++) {
          const id = ids[at]!;
          if (stamp[id] !== generation) {
            if (k !== 0 || this.paths[id] === undefined) continue;
            stamp[id] = generation;
            level[id] = 0;
            place[id] = 0;
            scores[id] = 0;
            firstLine[id] = 0;
            candidates[candidateCount++] = id;
          }
          visit(at, id);
        }
      }
      for (let i = 0; i < touchedCount; i++) {
        const id = touched[i]!;
        scores[id] = scores[id]! + bestText[id]! + bestName[id]!;
      }
      [alive, touched] = [touched, alive];
      aliveCount = touchedCount;
    }
    // The files in every clause, kept in place at the front of the candidates.
    let found = 0;
    for (let i = 0; i < candidateCount; i++) {
      const id = candidates[i]!;
      if (this.level[id] !== last) continue;
      if (options.filter && !options.filter(this.paths[id]!)) continue;
      candidates[found++] = id;
    }
    const best = topBy(candidates.subarray(0, found), options.limit, scores);
    return {
      total: found,
      matches: best.map((id): IndexMatch => {
        const line = this.firstLine[id]!;
        const path = this.paths[id]!;
        const score = this.scores[id]!;
        const where = PLACES[this.place[id]!]!;
        return line > 0 ? { path, score, where, line } : { path, score, where };
      }),
    };
  }

  private scratch(): void {
    const size = this.paths.length;
    if (this.stamp.length >= size && this.generation >= 0xfffffff0) {
      // Stamps wrapped (or a compaction numbered the files anew): clear them, keep the room.
      this.stamp.fill(0);
      this.generation = 0;
    } else if (this.stamp.length < size) {
      const capacity = Math.max(size, Math.ceil(this.stamp.length * 1.5), 1024);
      this.stamp = new Uint32Array(capacity);
      this.level = new Uint16Array(capacity);
      this.place = new Uint8Array(capacity);
      this.scores = new Float64Array(capacity);
      this.firstLine = new Uint32Array(capacity);
      this.bestText = new Float64Array(capacity);
      this.bestName = new Float64Array(capacity);
      this.candidates = new Uint32Array(capacity);
      this.aliveIds = new Uint32Array(capacity);
      this.touchedIds = new Uint32Array(capacity);
      this.generation = 0;
    }
  }

  /** Drops removed files from every list and numbers the files anew (order kept). */
  private compact(): void {
    const remap = new Uint32Array(this.paths.length);
    const paths: string[] = [];
    this.paths.forEach((path, id) => {
      if (path === undefined) return;
      remap[id] = paths.length;
      this.lengths[paths.length] = this.lengths[id]!;
      this.distinct[paths.length] = this.distinct[id]!;
      this.byPath.set(path, paths.length);
      paths.push(path);
    });
    const alive = (id: number): boolean => this.paths[id] !== undefined;
    for (const vocabulary of [this.text, this.names]) {
      for (const list of vocabulary.lists.values()) {
        list.keep(alive);
        const ids = list.ids;
        for (let i = 0; i < list.length; i++) ids[i] = remap[ids[i]!]!;
      }
      vocabulary.dropEmpty();
    }
    this.table.clear();
    this.seen.fill(0);
    this.paths = paths;
    this.postingCount -= this.deadPostings;
    this.deadPostings = 0;
    this.generation = 0xfffffff0;
  }
}

const PLACES: readonly (MatchPlace | undefined)[] = [undefined, 'name', 'content', 'name+content'];

/** The first position at or after `from` whose id is `id` or more (galloping, then binary). */
function seek(ids: ArrayLike<number>, length: number, from: number, id: number): number {
  if (from >= length || ids[from]! >= id) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < length && ids[hi]! < id) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > length) hi = length;
  // ids[lo] < id; the answer is in (lo, hi].
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! < id) lo = mid;
    else hi = mid;
  }
  return hi;
}

function grown(array: Uint32Array, index: number): Uint32Array<ArrayBuffer> {
  const next = new Uint32Array(Math.max(index + 1, array.length * 2));
  next.set(array);
  return next;
}
