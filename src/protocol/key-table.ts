/**
 * Values by key (a string, or a number kept apart from the string of its digits), for tables
 * that gain and lose an entry per request or job (reads and requests in flight): a dictionary
 * object, not a Map. See IdTable for why: a churning Map chains its old tables together, and
 * once one of them is in V8's old generation the chain keeps every later value alive until the
 * next full collection.
 */
export class KeyTable<V, K extends string | number = string> {
  // Numbers and strings in separate objects, keyed as they are: a prefixed key would build and
  // hash a new string on every call (a request id is looked up twice per request).
  private numbers: Record<number, V> = Object.create(null) as Record<number, V>;
  private strings: Record<string, V> = Object.create(null) as Record<string, V>;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: K): V | undefined {
    return typeof key === 'number' ? this.numbers[key] : this.strings[key as string];
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** Sets `key`; an undefined value takes it out. */
  set(key: K, value: V): void {
    if (value === undefined) {
      this.delete(key);
      return;
    }
    const entries = this.entriesOf(key);
    if (entries[key] === undefined) this.count++;
    entries[key] = value;
  }

  delete(key: K): boolean {
    const entries = this.entriesOf(key);
    if (entries[key] === undefined) return false;
    delete entries[key];
    this.count--;
    return true;
  }

  clear(): void {
    this.numbers = Object.create(null) as Record<number, V>;
    this.strings = Object.create(null) as Record<string, V>;
    this.count = 0;
  }

  /** The keys, in no particular order: a copy, which changes to the table do not reach. */
  keys(): K[] {
    return [...Object.keys(this.numbers).map(Number), ...Object.keys(this.strings)] as K[];
  }

  /** The values, in no particular order: a copy, which changes to the table do not reach. */
  snapshot(): V[] {
    return [...Object.values(this.numbers), ...Object.values(this.strings)];
  }

  private entriesOf(key: K): Record<string | number, V> {
    return typeof key === 'number' ? this.numbers : this.strings;
  }
}
