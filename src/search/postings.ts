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
    return list;
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
  }
}
