/** A least-recently-used cache bounded in bytes, for encoded file contents. */

export interface CacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

interface CacheEntry<V> {
  readonly value: V;
  readonly cost: number;
  /** What the entry is a version of (a file's real path), to drop every version at once. */
  readonly group: string | undefined;
}

/**
 * Keeps values up to `maxBytes` in total (each value's `cost`), evicting the least recently used.
 * A value larger than `maxEntryBytes` (default: half of `maxBytes`) is not kept at all, so that one
 * huge file cannot flush everything else.
 */
export class ByteLruCache<V> {
  private readonly map = new Map<string, CacheEntry<V>>();
  /** Each group's keys: one key alone, or a Set of several. */
  private readonly groups = new Map<string, string | Set<string>>();
  /** The entry used last, last in `map`'s order (undefined: unknown): used again, it stays. */
  private newest: CacheEntry<V> | undefined;
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
    if (entry !== this.newest) {
      this.map.delete(key);
      this.map.set(key, entry);
      this.newest = entry;
    }
    return entry.value;
  }

  /** The value under `key`, if any, as neither a hit nor a miss nor a use (the order stays). */
  peek(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  /** Whether a value of `cost` would be kept (so that what only a kept value needs is made first). */
  accepts(cost: number): boolean {
    return cost <= this.maxEntryBytes && this.maxBytes > 0;
  }

  /**
   * Stores a value; returns false when it is too large to keep. `group` names what the value is
   * a version of, for {@link deleteGroup}.
   */
  set(key: string, value: V, cost: number, group?: string): boolean {
    this.delete(key);
    if (!this.accepts(cost)) return false;
    const entry = { value, cost, group };
    this.map.set(key, entry);
    this.newest = entry;
    if (group !== undefined) {
      // One version (the usual case) is its key alone; a Set only once there are more.
      const keys = this.groups.get(group);
      if (keys === undefined) this.groups.set(group, key);
      else if (typeof keys === 'string') this.groups.set(group, new Set([keys, key]));
      else keys.add(key);
    }
    this.bytes += cost;
    for (const oldest of this.map.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
    return true;
  }

  delete(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.map.delete(key);
    if (entry === this.newest) this.newest = undefined;
    this.bytes -= entry.cost;
    if (entry.group !== undefined) {
      const keys = this.groups.get(entry.group);
      if (keys === key) this.groups.delete(entry.group);
      else if (typeof keys === 'object') {
        keys.delete(key);
        if (keys.size === 0) this.groups.delete(entry.group);
      }
    }
  }

  /** Drops every entry stored with this `group` (all cached versions of one file), at once. */
  deleteGroup(group: string): void {
    const keys = this.groups.get(group);
    if (typeof keys === 'string') this.delete(keys);
    else if (keys) for (const key of [...keys]) this.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
    this.groups.clear();
    this.bytes = 0;
  }

  stats(): CacheStats {
    return { entries: this.map.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }
}
