/**
 * A result that carries its own JSON: encoded once (an answer served again and again, such as a
 * read of an unchanged file) and written with only the request's id spliced in. It is kept as
 * UTF-8 bytes, which a writer sends as they are (no conversion per answer, and off the JS heap),
 * on a symbol key, which JSON.stringify ignores, so the object stays an ordinary result for every
 * path that does not write bytes (in memory, tests).
 */
const PRE_ENCODED = Symbol('mcpkit.preEncoded');

const utf8 = new TextEncoder();
const utf8Text = new TextDecoder();

/** Marks `result` (frozen from here on) as encoded by `json`, its exact JSON.stringify. */
export function withPreEncoded<T extends object>(result: T, json: string): T {
  Object.defineProperty(result, PRE_ENCODED, { value: utf8.encode(json) });
  return Object.freeze(result);
}

/** The UTF-8 JSON of a result marked by {@link withPreEncoded}, if it is one (never modify it). */
export function preEncodedBytesOf(result: unknown): Uint8Array | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  return (result as { [PRE_ENCODED]?: Uint8Array })[PRE_ENCODED];
}

/** Whether `result` was encoded once, whole or in parts. */
export function isPreEncoded(result: unknown): boolean {
  return preEncodedBytesOf(result) !== undefined || preEncodedPartsOf(result) !== undefined;
}

/**
 * A large result encoded once in parts (content/encode-message.ts): its JSON is the parts
 * joined, strings to write and UTF-8 bytes shared with other answers (never to be modified).
 */
export interface PreEncodedParts {
  readonly parts: readonly (string | Uint8Array)[];
  /** UTF-8 size of the parts joined. */
  readonly bytes: number;
}

const PRE_ENCODED_PARTS = Symbol('mcpkit.preEncodedParts');

/** Marks `result` (frozen from here on) as encoded by `encoded`, parts whose join is its JSON. */
export function withPreEncodedParts<T extends object>(result: T, encoded: PreEncodedParts): T {
  Object.defineProperty(result, PRE_ENCODED_PARTS, { value: encoded });
  return Object.freeze(result);
}

export function preEncodedPartsOf(result: unknown): PreEncodedParts | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  return (result as { [PRE_ENCODED_PARTS]?: PreEncodedParts })[PRE_ENCODED_PARTS];
}

/** UTF-8 bytes a result encoded once takes, either way; undefined when it is not. */
export function preEncodedSize(result: unknown): number | undefined {
  return preEncodedBytesOf(result)?.byteLength ?? preEncodedPartsOf(result)?.bytes;
}

/** The JSON text of a result marked by {@link withPreEncoded}, if it is one (decoded anew). */
export function preEncodedOf(result: unknown): string | undefined {
  const bytes = preEncodedBytesOf(result);
  return bytes === undefined ? undefined : utf8Text.decode(bytes);
}

/**
 * Whether the strings in `value` add up to at least `limit` characters, found without
 * serialising it (a big answer is never encoded whole: its large strings are written as parts).
 */
export function holdsAtLeast(value: unknown, limit: number): boolean {
  return stringsIn(value, limit, 0) >= limit;
}

/** Characters of the strings in `v`, counted until they reach `limit` (then at least that). */
function stringsIn(v: unknown, limit: number, depth: number): number {
  if (typeof v === 'string') return v.length;
  if (typeof v !== 'object' || v === null || depth > 64) return 0;
  let total = 0;
  if (Array.isArray(v)) {
    for (const item of v) if ((total += stringsIn(item, limit - total, depth + 1)) >= limit) break;
    return total;
  }
  for (const key in v) {
    if (!Object.hasOwn(v, key)) continue;
    const item = (v as Record<string, unknown>)[key];
    if ((total += stringsIn(item, limit - total, depth + 1)) >= limit) break;
  }
  return total;
}
