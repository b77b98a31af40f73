/**
 * Answers to `resources/read` encoded once per (version, URI, era): a read handler that says which
 * version of its content it served (any object that stands for it, such as a file's cached
 * contents) gets its whole answer, envelope included, serialised once and then written with only
 * the id spliced in. A new version is a new object, so nothing is ever served stale.
 */
import { SHARED_BODY_MIN_BYTES } from '../content/shared-bodies.js';
import { holdsAtLeast, withPreEncoded, withPreEncodedParts } from '../protocol/pre-encoded.js';
import { resultParts } from '../content/encode-message.js';

/** What each versioned read result stands for (a WeakMap: no property to define per request). */
const marks = new WeakMap<object, { version: object; validity: ReadValidity | undefined }>();

/** Ways one version is asked for (URI spellings, eras) kept at most: a client cannot grow it. */
const SPELLINGS_PER_VERSION = 4;

/** What a read handler knows of its answer's lifetime: `valid` is read on every repeat. */
export interface ReadValidity {
  /**
   * True while the same read would serve this version, told without I/O (a watched file whose
   * watch reported no change). False once it might not: the next read runs the handler.
   */
  readonly valid: boolean;
}

/**
 * Tells the server that `result` is the answer for `version` (an object that changes whenever the
 * content does: a new version, a new object). Returns `result`. With `validity`, the same request
 * (same params, same transport setting, another id) is answered again from the encoded answer
 * without running the handler while `validity.valid` stays true (see server/replay-lane.ts).
 *
 * @example
 * return versionedRead({ contents: [{ uri, mimeType, text }] }, cachedEntry);
 */
export function versionedRead<T extends object>(
  result: T,
  version: object,
  validity?: ReadValidity,
): T {
  marks.set(result, { version, validity });
  return result;
}

export function readVersionOf(value: unknown): object | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return marks.get(value)?.version;
}

export function readValidityOf(value: unknown): ReadValidity | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return marks.get(value)?.validity;
}

/** The answers of one version: the first spelling inline (the usual case), others in a Map. */
interface Spellings {
  readonly key: string;
  readonly encoded: Record<string, unknown>;
  more?: Map<string, Record<string, unknown>>;
}

export class EncodedReads {
  private readonly byVersion = new WeakMap<object, Spellings>();

  get(version: object, key: string): Record<string, unknown> | undefined {
    const spellings = this.byVersion.get(version);
    if (spellings === undefined) return undefined;
    return spellings.key === key ? spellings.encoded : spellings.more?.get(key);
  }

  /**
   * Keeps the final `result` for `version` under `key` (URI and era), encoded: as one JSON text,
   * or when large as parts (its big strings written as they are, never joined into one).
   */
  set(version: object, key: string, result: Record<string, unknown>): Record<string, unknown> {
    let encoded: Record<string, unknown>;
    if (holdsAtLeast(result, SHARED_BODY_MIN_BYTES)) {
      // Large: in parts, its big strings the cache's shared bytes (or their own parts).
      const parts = resultParts(result);
      if (!parts) return result;
      encoded = withPreEncodedParts(result, parts);
    } else encoded = withPreEncoded(result, JSON.stringify(result));
    const spellings = this.byVersion.get(version);
    if (!spellings) {
      this.byVersion.set(version, { key, encoded });
      return encoded;
    }
    // The first stays; the others, oldest first out, up to the bound with it.
    const more = (spellings.more ??= new Map());
    if (more.size >= SPELLINGS_PER_VERSION - 1) {
      const oldest = more.keys().next().value;
      if (oldest !== undefined) more.delete(oldest);
    }
    more.set(key, encoded);
    return encoded;
  }
}
