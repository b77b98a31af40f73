/**
 * Answers to `resources/read` encoded once per (version, URI, era) for handlers that name their
 * version (`versionedRead`), then written with only the id spliced in. Kept from the second
 * answer of a version on: the first is encoded by the transport straight into its write, so
 * reads that never repeat cost no copy here. Per server, bounded (`maxEncodedReadBytes`), least
 * recently used out first; versions are held weakly, so a provider's cache entry is never kept
 * alive and an answer whose version is gone gives its room to the next ones.
 */
import { LARGE_PART_BYTES, resultParts } from '../content/encode-message.js';
import {
  holdsAtLeast,
  preEncodedSize,
  withPreEncoded,
  withPreEncodedParts,
} from '../protocol/pre-encoded.js';

type Result = Record<string, unknown>;

const utf8 = new TextEncoder();

/** What the answers of one server take at most by default (32 MiB). */
export const DEFAULT_MAX_ENCODED_READ_BYTES = 32 * 1024 * 1024;

/** Ways one version is asked for (URI spellings, eras) kept at most: a client cannot grow it. */
const SPELLINGS_PER_VERSION = 4;

/** One encoded answer; `encoded` is dropped when it leaves the table. */
interface Kept {
  readonly key: string;
  encoded: Result | undefined;
  readonly bytes: number;
}

export class EncodedReads {
  /** The answers of each version, found by the version's identity. */
  private readonly byVersion = new WeakMap<object, Kept[]>();
  /** Every answer held, least recently used first: what the bytes are counted over. */
  private readonly held = new Set<Kept>();
  /** The answer used last, last in `held` (undefined: unknown): used again, it stays. */
  private newest: Kept | undefined;
  private bytes = 0;
  /**
   * The largest answer kept: half the table, so that one cannot flush all the others, yet the
   * answer of a blob of several MiB read by many clients at once is encoded once, not per answer.
   */
  private readonly maxAnswerBytes: number;

  /** `limit`: UTF-8 bytes of encoded answers held at most; 0 keeps none. */
  constructor(readonly limit: number = DEFAULT_MAX_ENCODED_READ_BYTES) {
    if (!Number.isSafeInteger(limit) || limit < 0)
      throw new RangeError(
        `maxEncodedReadBytes must be a whole number of bytes, got ${String(limit)}`,
      );
    this.maxAnswerBytes = Math.floor(limit / 2);
  }

  /** Versions answered once, not kept: answered again, they are. */
  private readonly seen = new WeakSet<object>();

  /**
   * The answer of `version` under `key` (URI and era): the one kept; else, for a version answered
   * before, `result()` encoded and kept ({@link keep}); else undefined, and the version is noted.
   */
  answer(version: object, key: string, result: () => Result | undefined): Result | undefined {
    if (this.limit === 0) return undefined;
    const kept = this.byVersion.get(version)?.find((k) => k.key === key);
    if (kept?.encoded !== undefined) {
      // Most recently used: last out.
      if (kept !== this.newest) {
        this.held.delete(kept);
        this.held.add(kept);
        this.newest = kept;
      }
      return kept.encoded;
    }
    if (this.seen.has(version)) {
      const final = result();
      return final && this.keep(version, key, final);
    }
    this.seen.add(version);
    return undefined;
  }

  /**
   * The final `result` of `version` under `key`, encoded: as one JSON text, or when large as
   * parts (its big strings written as they are, never joined into one). Kept when it fits (an
   * answer over half the table is not); `result` as it is when it cannot be encoded ahead.
   */
  private keep(version: object, key: string, result: Result): Result {
    let encoded: Result;
    if (holdsAtLeast(result, LARGE_PART_BYTES)) {
      const parts = resultParts(result);
      if (!parts) return result;
      // Its large strings as UTF-8 once: every answer of this version writes the same bytes.
      const bytes = parts.parts.map((p) =>
        typeof p === 'string' && p.length >= LARGE_PART_BYTES ? utf8.encode(p) : p,
      );
      encoded = withPreEncodedParts(result, { parts: bytes, bytes: parts.bytes });
    } else encoded = withPreEncoded(result, JSON.stringify(result));
    const bytes = preEncodedSize(encoded) as number;
    if (bytes > this.maxAnswerBytes) return encoded;
    let spellings = this.byVersion.get(version);
    if (!spellings) this.byVersion.set(version, (spellings = []));
    const same = spellings.findIndex((k) => k.key === key);
    if (same >= 0) this.drop(spellings.splice(same, 1)[0] as Kept);
    // Spellings that left the table go; then the oldest past the bound (the first one stays).
    for (let i = spellings.length - 1; i >= 0; i--)
      if ((spellings[i] as Kept).encoded === undefined) spellings.splice(i, 1);
    if (spellings.length >= SPELLINGS_PER_VERSION) this.drop(spellings.splice(1, 1)[0] as Kept);
    for (const oldest of this.held) {
      if (this.bytes + bytes <= this.limit) break;
      this.drop(oldest);
    }
    const kept: Kept = { key, encoded, bytes };
    spellings.push(kept);
    this.held.add(kept);
    this.newest = kept;
    this.bytes += bytes;
    return encoded;
  }

  private drop(kept: Kept): void {
    if (!this.held.delete(kept)) return;
    if (kept === this.newest) this.newest = undefined;
    this.bytes -= kept.bytes;
    kept.encoded = undefined;
  }
}
