import type { StoredArtifact } from '../server/index.js';

/** Characters of `"mac":"<64 hex>"}`, what a record ends with as `RedisLinkStore.put` writes it. */
export const RECORD_TAIL_CHARS = 73;

interface Kept {
  readonly found: StoredArtifact;
  /** The record's last characters (its MAC) and its length in UTF-8 bytes, as Redis counts. */
  readonly tail: string;
  readonly bytes: number;
}

/**
 * Artifact records of the Redis link store that passed their checks, by id: a walk reads one
 * artifact part by part, and fetching and hashing it again for each part made the walk quadratic.
 * An entry is served only while the record in Redis still ends with the same MAC (which covers
 * the URI, metadata, expiry and content: a put again has another) and has the same length; the
 * store asks Redis for those two, not for the record (an edit by someone without the secret
 * that keeps both serves the verified content it overwrote, never the edit). At most `maxBytes`
 * characters of content are kept, least recently used first out; the newest record is kept even
 * when larger on its own, so that a walk of the largest artifact is linear too.
 */
export class VerifiedArtifacts {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  has(id: string): boolean {
    return this.kept.has(id);
  }

  /** The record kept for `id` when Redis's record still ends with `tail` and has `bytes` bytes. */
  get(id: string, tail: unknown, bytes: unknown): StoredArtifact | undefined {
    const kept = this.kept.get(id);
    if (kept === undefined || kept.tail !== tail || kept.bytes !== bytes) return undefined;
    this.kept.delete(id);
    this.kept.set(id, kept);
    return kept.found;
  }

  /** Keeps `found`, verified from `record`, when the record ends with its MAC as put writes it. */
  set(id: string, record: string, mac: string, found: StoredArtifact): void {
    this.delete(id);
    const tail = `"mac":"${mac}"}`;
    if (this.maxBytes === 0 || !record.endsWith(tail)) return;
    this.kept.set(id, { found, tail, bytes: Buffer.byteLength(record) });
    this.bytes += cost(found);
    for (const [key, { found: old }] of this.kept) {
      if (this.bytes <= this.maxBytes || key === id) break;
      this.kept.delete(key);
      this.bytes -= cost(old);
    }
  }

  delete(id: string): void {
    const kept = this.kept.get(id);
    if (kept === undefined) return;
    this.kept.delete(id);
    this.bytes -= cost(kept.found);
  }
}

function cost(found: StoredArtifact): number {
  return (found.text ?? found.blob ?? '').length;
}
