/**
 * Values by key (a string, or a number kept apart from the string of its digits), for tables
 * that gain and lose an entry per request or job (reads and requests in flight): a dictionary
 * object, not a Map. See IdTable for why: a churning Map chains its old tables together, and
 * once one of them is in V8's old generation the chain keeps every later value alive until the
 * next full collection.
 */
export class KeyTable<V, K extends string | number = string> {
  private entries: Record<string, V> = Object.create(null) as Record<string, V>;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: K): V | undefined {
    return this.entries[slotOf(key)];
  }

  has(key: K): boolean {
    return this.entries[slotOf(key)] !== undefined;
  }

  /** Sets `key`; an undefined value takes it out. */
  set(key: K, value: V): void {
    if (value === undefined) {
      this.delete(key);
      return;
    }
    const slot = slotOf(key);
    if (this.entries[slot] === undefined) this.count++;
    this.entries[slot] = value;
  }

  delete(key: K): boolean {
    const slot = slotOf(key);
    if (this.entries[slot] === undefined) return false;
    delete this.entries[slot];
    this.count--;
    return true;
  }

  clear(): void {
    this.entries = Object.create(null) as Record<string, V>;
    this.count = 0;
  }

  /** The keys, in no particular order: a copy, which changes to the table do not reach. */
  keys(): K[] {
    return Object.keys(this.entries).map(
      (slot) => (slot[0] === 'n' ? Number(slot.slice(1)) : slot.slice(1)) as K,
    );
  }

  /** The values, in no particular order: a copy, which changes to the table do not reach. */
  snapshot(): V[] {
    return Object.values(this.entries);
  }
}

function slotOf(key: string | number): string {
  return typeof key === 'number' ? `n${key}` : `s${key}`;
}
