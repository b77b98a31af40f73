import { KeyTable } from './key-table.js';

/**
 * Values by whole-number id (ids counted up and settled in about the order given: jobs and
 * requests in flight), in two arrays indexed by the id modulo their length. An id whose slot is
 * taken by another moves that older one to a small overflow table (a straggler: a job held by a
 * hung file), so the arrays grow with the number held, never with how far apart ids are.
 *
 * Why not a Map: V8 rebuilds a Map's table every few dozen inserts and deletes, and each
 * old table points to the next one. Once an old table sits in the old generation (after any full
 * collection), that chain keeps every later table, and all the values they held, alive through
 * the young generation's collections: each value is promoted, then freed only by the next full
 * collection. For jobs in flight whose values hold whole file contents, that was most of a cold
 * read's GC cost (bench/cold-read-profile.md). Arrays written in place leave no chain.
 */
export class IdTable<T> {
  private ids: number[];
  private values: (T | undefined)[];
  private inSlots = 0;
  /** A KeyTable too: a steady share of slow jobs must not churn a Map either. */
  private readonly overflow = new KeyTable<T, number>();

  constructor(capacity = 64) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(capacity, 2)));
    this.ids = new Array<number>(size).fill(-1);
    this.values = new Array<T | undefined>(size).fill(undefined);
  }

  get size(): number {
    return this.inSlots + this.overflow.size;
  }

  get(id: number): T | undefined {
    if (id < 0) return undefined;
    const at = id & (this.ids.length - 1);
    if (this.ids[at] === id) return this.values[at];
    return this.overflow.size > 0 ? this.overflow.get(id) : undefined;
  }

  has(id: number): boolean {
    if (id < 0) return false; // -1 marks an empty slot
    if (this.ids[id & (this.ids.length - 1)] === id) return true;
    return this.overflow.size > 0 && this.overflow.has(id);
  }

  /** Sets `id`, a whole number from 0 to 2^31 - 1; an undefined value takes it out. */
  set(id: number, value: T): void {
    if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff)
      throw new RangeError(`an IdTable id is a whole number from 0 to 2^31 - 1 (got ${id})`);
    if (value === undefined) {
      this.take(id);
      return;
    }
    if (this.overflow.size > 0 && this.overflow.has(id)) {
      this.overflow.set(id, value);
      return;
    }
    if (this.inSlots >= this.ids.length / 2) this.grow();
    const at = id & (this.ids.length - 1);
    const held = this.ids[at] as number;
    if (held === -1) this.inSlots++;
    else if (held !== id) this.overflow.set(held, this.values[at] as T);
    this.ids[at] = id;
    this.values[at] = value;
  }

  /** Takes `id` out; returns its value, if it had one. */
  take(id: number): T | undefined {
    if (id < 0) return undefined;
    const at = id & (this.ids.length - 1);
    if (this.ids[at] !== id) {
      if (this.overflow.size === 0) return undefined;
      const value = this.overflow.get(id);
      this.overflow.delete(id);
      return value;
    }
    const value = this.values[at];
    this.ids[at] = -1;
    this.values[at] = undefined;
    this.inSlots--;
    return value;
  }

  delete(id: number): boolean {
    const had = this.has(id);
    this.take(id);
    return had;
  }

  clear(): void {
    this.ids.fill(-1);
    this.values.fill(undefined);
    this.inSlots = 0;
    this.overflow.clear();
  }

  /** The values, in no particular order: a copy, which changes to the table do not reach. */
  snapshot(): T[] {
    const out: T[] = [];
    for (let at = 0; at < this.ids.length; at++)
      if (this.ids[at] !== -1) out.push(this.values[at] as T);
    out.push(...this.overflow.snapshot());
    return out;
  }

  /** Doubles the arrays (ids that still meet in a slot: one of them goes to the overflow). */
  private grow(): void {
    const { ids, values } = this;
    const size = ids.length * 2;
    this.ids = new Array<number>(size).fill(-1);
    this.values = new Array<T | undefined>(size).fill(undefined);
    this.inSlots = 0;
    for (let at = 0; at < ids.length; at++) {
      const id = ids[at] as number;
      if (id !== -1) this.set(id, values[at] as T);
    }
  }
}
