/**
 * The documents holding one term, in the order they were added: ids, the term's count in each
 * (capped at 255) and the line it first occurs on (0 past 65,535), seven bytes a posting, in
 * one buffer. Removed documents stay until {@link Postings.keep} drops them (the index
 * compacts when enough are dead).
 *
 * An index holds a list per term (186,000 for a 100,000-file repository), most of them a few
 * postings long: three typed arrays a list, each with its buffer object, were two thirds of
 * the index's heap. A list keeps one buffer and makes its views when asked; it keeps them only
 * while it is written, until {@link Postings.fit}.
 */
export class Postings {
  length = 0;
  /** Room for this many postings in `buffer`. */
  private capacity: number;
  /** ids (4 bytes each), then lines (2), then counts (1); none for a loaded list. */
  private buffer: ArrayBuffer | undefined;
  /** Views of `buffer` while the list is written, or a loaded list's own arrays (kept). */
  private views: Views | undefined;

  constructor(capacity = 2) {
    this.capacity = capacity;
    this.buffer = new ArrayBuffer(capacity * BYTES_PER_POSTING);
  }

  /** A list made of saved arrays (index-file.ts), as long as they are. */
  static of(ids: Uint32Array, counts: Uint8Array, lines: Uint16Array): Postings {
    const list = new Postings(0);
    list.buffer = undefined;
    list.capacity = ids.length;
    list.length = ids.length;
    list.views = { ids, counts, lines };
    return list;
  }

  /** The ids (valid below `length`); a view made now unless the list is being written. */
  get ids(): Uint32Array {
    return this.views?.ids ?? new Uint32Array(this.buffer!, 0, this.capacity);
  }

  get counts(): Uint8Array {
    return this.views?.counts ?? new Uint8Array(this.buffer!, this.capacity * 6, this.capacity);
  }

  get lines(): Uint16Array {
    return this.views?.lines ?? new Uint16Array(this.buffer!, this.capacity * 4, this.capacity);
  }

  /** Adds a document (ids only grow, so the list stays sorted). */
  push(id: number, count: number, line = 0): void {
    if (this.length === this.capacity) this.grow();
    const { ids, counts, lines } = this.writable();
    ids[this.length] = id;
    counts[this.length] = count > 255 ? 255 : count;
    lines[this.length] = line > 65_535 ? 0 : line;
    this.length++;
  }

  /** One more occurrence in the last document added. */
  bump(): void {
    const at = this.length - 1;
    const { counts } = this.writable();
    if (counts[at]! < 255) counts[at]!++;
  }

  /** Keeps the documents `alive` says to keep, in order; returns how many are left. */
  keep(alive: (id: number) => boolean): number {
    // Views made for this pass only: a compaction keeps every list, and views kept on each
    // would hold the index's heap at its unfitted size until the next fit.
    const { ids, counts, lines } = this.views ?? viewsOf(this.buffer!, this.capacity);
    let out = 0;
    for (let i = 0; i < this.length; i++) {
      const id = ids[i]!;
      if (!alive(id)) continue;
      ids[out] = id;
      counts[out] = counts[i]!;
      lines[out] = lines[i]!;
      out++;
    }
    this.length = out;
    if (this.capacity > 16 && out < this.capacity / 4) {
      this.resize(Math.max(2, out * 2));
      if (this.buffer !== undefined) this.views = undefined;
    }
    return out;
  }

  /** Gives back the room kept for growth, and the views kept while written. */
  fit(): void {
    if (this.buffer === undefined) return;
    if (this.capacity - this.length > 4) this.resize(Math.max(2, this.length));
    this.views = undefined;
  }

  /** Whether `id` is in the list (see {@link sortedHas} to look up many in one view). */
  has(id: number): boolean {
    return sortedHas(this.ids, this.length, id);
  }

  /** Bytes held by the arrays. */
  get bytes(): number {
    return this.capacity * BYTES_PER_POSTING;
  }

  private writable(): Views {
    if (this.views) return this.views;
    const views = viewsOf(this.buffer!, this.capacity);
    this.views = views;
    return views;
  }

  private grow(): void {
    const size = this.capacity;
    this.resize(size < 1024 ? Math.max(2, size * 2) : size + (size >> 1));
  }

  private resize(capacity: number): void {
    const from = this.views ?? viewsOf(this.buffer!, this.capacity);
    const buffer = new ArrayBuffer(capacity * BYTES_PER_POSTING);
    const to = viewsOf(buffer, capacity);
    to.ids.set(from.ids.subarray(0, this.length));
    to.counts.set(from.counts.subarray(0, this.length));
    to.lines.set(from.lines.subarray(0, this.length));
    this.buffer = buffer;
    this.capacity = capacity;
    this.views = to;
  }
}

/** Whether `id` is among the first `length` of sorted `ids` (binary search). */
export function sortedHas(ids: ArrayLike<number>, length: number, id: number): boolean {
  let lo = 0;
  let hi = length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = ids[mid]!;
    if (at === id) return true;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

const BYTES_PER_POSTING = 7;

interface Views {
  readonly ids: Uint32Array;
  readonly counts: Uint8Array;
  readonly lines: Uint16Array;
}

function viewsOf(buffer: ArrayBuffer, capacity: number): Views {
  return {
    ids: new Uint32Array(buffer, 0, capacity),
    lines: new Uint16Array(buffer, capacity * 4, capacity),
    counts: new Uint8Array(buffer, capacity * 6, capacity),
  };
}
