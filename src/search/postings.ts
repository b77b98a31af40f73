/**
 * The documents holding one term, in the order they were added: ids in a typed array, the
 * term's count in each (capped at 255) and the line it first occurs on (0 past 65,535), seven
 * bytes a posting. Removed documents stay until
 * {@link Postings.keep} drops them (the index compacts when enough are dead).
 */
export class Postings {
  ids: Uint32Array;
  counts: Uint8Array;
  lines: Uint16Array;
  length = 0;
  /** The arrays are views of shared slabs ({@link packLists}, or a saved index's buffer). */
  packed = false;

  constructor(capacity = 2) {
    this.ids = new Uint32Array(capacity);
    this.counts = new Uint8Array(capacity);
    this.lines = new Uint16Array(capacity);
  }

  /** A list made of saved arrays (index-file.ts), as long as they are. */
  static of(ids: Uint32Array, counts: Uint8Array, lines: Uint16Array): Postings {
    const list = new Postings(0);
    list.ids = ids;
    list.counts = counts;
    list.lines = lines;
    list.length = ids.length;
    list.packed = true;
    return list;
  }

  /** Moves the documents to `ids`, `counts` and `lines`: views of slabs, exactly as long. */
  place(ids: Uint32Array, counts: Uint8Array, lines: Uint16Array): void {
    ids.set(this.ids.subarray(0, this.length));
    counts.set(this.counts.subarray(0, this.length));
    lines.set(this.lines.subarray(0, this.length));
    this.ids = ids;
    this.counts = counts;
    this.lines = lines;
    this.packed = true;
  }

  /** Adds a document (ids only grow, so the list stays sorted). */
  push(id: number, count: number, line = 0): void {
    if (this.length === this.ids.length) this.grow();
    this.ids[this.length] = id;
    this.counts[this.length] = count > 255 ? 255 : count;
    this.lines[this.length] = line > 65_535 ? 0 : line;
    this.length++;
  }

  /** Counts one more occurrence in the last document added (the count stops at 255). */
  bump(): void {
    const at = this.length - 1;
    if (this.counts[at]! < 255) this.counts[at]!++;
  }

  /** Keeps the documents `alive` says yes to; returns how many remain. */
  keep(alive: (id: number) => boolean): number {
    let out = 0;
    for (let i = 0; i < this.length; i++) {
      const id = this.ids[i]!;
      if (!alive(id)) continue;
      this.ids[out] = id;
      this.counts[out] = this.counts[i]!;
      this.lines[out] = this.lines[i]!;
      out++;
    }
    this.length = out;
    if (this.ids.length > 16 && out < this.ids.length / 4) this.resize(Math.max(2, out * 2));
    return out;
  }

  /** Gives back the room kept for growth (after a build: a third of the bytes, at most). */
  fit(): void {
    if (this.ids.length - this.length > 4) this.resize(Math.max(2, this.length));
  }

  /** Whether `id` is in the list (binary search). */
  has(id: number): boolean {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.ids[mid]!;
      if (at === id) return true;
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.ids.byteLength + this.counts.byteLength + this.lines.byteLength;
  }

  private grow(): void {
    const size = this.ids.length;
    this.resize(size < 1024 ? Math.max(2, size * 2) : size + (size >> 1));
  }

  // Three arrays, not views of one buffer: small typed arrays live in V8's heap (an ArrayBuffer
  // is always allocated outside it, several times slower; measured on a build).
  private resize(capacity: number): void {
    const ids = new Uint32Array(capacity);
    ids.set(this.ids.subarray(0, this.length));
    const counts = new Uint8Array(capacity);
    counts.set(this.counts.subarray(0, this.length));
    const lines = new Uint16Array(capacity);
    lines.set(this.lines.subarray(0, this.length));
    this.ids = ids;
    this.counts = counts;
    this.lines = lines;
    this.packed = false;
  }
}

/** Postings in one slab at most; a list longer than a quarter of it keeps arrays of its own. */
const SLAB = 1 << 20;

/**
 * Gives back the room the lists keep for growth: those not packed yet are moved, exactly as long,
 * into a few shared slabs (views of one buffer per array kind), the rest fitted. Three typed
 * arrays of its own cost a list ~500 bytes beyond its postings (the array objects, a buffer
 * and its backing store each): on a repository's 100,000s of terms, more than the postings of
 * most of them (docs/search-index.md). A packed list that grows gets arrays of its own again.
 */
export function packLists(lists: Iterable<Postings>): void {
  const loose: Postings[] = [];
  let left = 0;
  for (const list of lists) {
    if (list.packed) continue;
    if (list.length > SLAB / 4) list.fit();
    else {
      loose.push(list);
      left += list.length;
    }
  }
  let ids = new Uint32Array(0);
  let counts = new Uint8Array(0);
  let lines = new Uint16Array(0);
  let at = 0;
  for (const list of loose) {
    const n = list.length;
    if (at + n > ids.length) {
      // A slab as large as what is left to place, at most SLAB: the last one is not half empty.
      const room = Math.min(SLAB, left);
      ids = new Uint32Array(room);
      counts = new Uint8Array(room);
      lines = new Uint16Array(room);
      at = 0;
    }
    list.place(ids.subarray(at, at + n), counts.subarray(at, at + n), lines.subarray(at, at + n));
    at += n;
    left -= n;
  }
}
