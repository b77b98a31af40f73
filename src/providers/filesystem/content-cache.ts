/** A least-recently-used cache bounded in bytes, for encoded file contents. */

export interface CacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

/**
 * Keeps values up to `maxBytes` in total (each value's `cost`), evicting the least recently used.
 * A value larger than `maxEntryBytes` (default: half of `maxBytes`) is not kept at all, so that one
 * huge file cannot flush everything else.
 */
export class ByteLruCache<V> {
  private readonly map = new Map<string, { value: V; cost: number }>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  readonly maxEntryBytes: number;

  constructor(
    readonly maxBytes: number,
    maxEntryBytes?: number,
  ) {
    this.maxEntryBytes = Math.min(maxEntryBytes ?? Math.floor(maxBytes / 2), maxBytes);
  }

  get(key: string): V | undefined {
    const entry = this.map.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  /** Stores a value; returns false when it is too large to keep. */
  set(key: string, value: V, cost: number): boolean {
    this.delete(key);
    if (cost > this.maxEntryBytes || this.maxBytes <= 0) return false;
    this.map.set(key, { value, cost });
    this.bytes += cost;
    for (const [oldest, entry] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(oldest);
      this.bytes -= entry.cost;
    }
    return true;
  }

  delete(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.map.delete(key);
    this.bytes -= entry.cost;
  }

  /** Drops every entry whose key starts with `prefix` (e.g. all versions of one file). */
  deletePrefix(prefix: string): void {
    for (const key of [...this.map.keys()]) if (key.startsWith(prefix)) this.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }

  stats(): CacheStats {
    return { entries: this.map.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }
}
