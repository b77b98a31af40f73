/** Exact UTF-8 wire sizes of JSON-encoded strings and content blocks, without building them. */
import type { ContentBlock, ResourceContents } from '../protocol/types.js';

/**
 * UTF-8 byte length of `JSON.stringify(text)`, both quotes included, by one linear scan:
 * `\" \\ \b \f \n \r \t` cost 2, other controls below 0x20 and lone surrogates 6 (`\uXXXX`),
 * everything else its UTF-8 length (1-4).
 *
 * @example
 * jsonStringWireSize('a"é'); // 2 + 1 + 2 + 2 = 7
 */
export function jsonStringWireSize(text: string): number {
  let size = 2;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20) size += c === 0x22 || c === 0x5c ? 2 : 1;
      else size += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    } else if (c < 0x800) size += 2;
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        size += 4;
        i++;
      } else size += 6;
    } else size += 3;
  }
  return size;
}

/** Bytes `JSON.stringify` adds for each byte of UTF-8 text (beyond the byte itself). */
const JSON_ESCAPE_EXTRA: Uint8Array = (() => {
  const extra = new Uint8Array(256);
  for (let b = 0; b < 0x20; b++) extra[b] = 5; // \u00XX
  for (const b of [0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]) extra[b] = 1; // \b \t \n \f \r \" \\
  return extra;
})();

/**
 * {@link jsonStringWireSize} of valid UTF-8 text given as its bytes (which hold no lone
 * surrogate): the byte count plus what escaping adds. Words of four bytes with no quote,
 * backslash or control are passed over whole; ~4x faster than `JSON.stringify` for prose.
 *
 * @example
 * jsonUtf8WireSize(new TextEncoder().encode('a"é')); // 7
 */
export function jsonUtf8WireSize(bytes: Uint8Array): number {
  const n = bytes.length;
  let extra = 0;
  let i = 0;
  const head = Math.min(n, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < head; i++) extra += JSON_ESCAPE_EXTRA[bytes[i] as number] as number;
  const words = (n - i) >>> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      const x = view[k] as number;
      const quote = x ^ 0x22222222;
      const slash = x ^ 0x5c5c5c5c;
      // A byte below 0x20, or equal to one of the two: flagged, with rare false alarms.
      const flagged =
        ((x - 0x20202020) & ~x) | ((quote - 0x01010101) & ~quote) | ((slash - 0x01010101) & ~slash);
      if ((flagged & 0x80808080) !== 0) {
        const at = i + k * 4;
        extra +=
          (JSON_ESCAPE_EXTRA[bytes[at] as number] as number) +
          (JSON_ESCAPE_EXTRA[bytes[at + 1] as number] as number) +
          (JSON_ESCAPE_EXTRA[bytes[at + 2] as number] as number) +
          (JSON_ESCAPE_EXTRA[bytes[at + 3] as number] as number);
      }
    }
    i += words * 4;
  }
  for (; i < n; i++) extra += JSON_ESCAPE_EXTRA[bytes[i] as number] as number;
  return n + 2 + extra;
}

/**
 * {@link utf8Length} and {@link jsonStringWireSize} of one string in one scan (a large text is
 * sized as raw bytes and as JSON by the assembler: one pass instead of three).
 */
export function textSizes(text: string): { utf8: number; json: number } {
  let utf8 = 0;
  let json = 2;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      utf8 += 1;
      if (c >= 0x20) json += c === 0x22 || c === 0x5c ? 2 : 1;
      else json += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    } else if (c < 0x800) {
      utf8 += 2;
      json += 2;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        utf8 += 4;
        json += 4;
        i++;
      } else {
        utf8 += 3;
        json += 6;
      }
    } else {
      utf8 += 3;
      json += 3;
    }
  }
  return { utf8, json };
}

/** UTF-8 byte length of a string (lone surrogates count 3, as U+FFFD, like TextEncoder). */
export function utf8Length(text: string): number {
  let size = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) size += 1;
    else if (c < 0x800) size += 2;
    else if (c <= 0xdbff && c >= 0xd800) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        size += 4;
        i++;
      } else size += 3;
    } else size += 3;
  }
  return size;
}

/** Size of `JSON.stringify(holder)` where `holder[key]` is the one big string field. */
function sizeWithBigField(holder: Record<string, unknown>, key: string): number | undefined {
  const big = holder[key];
  if (typeof big !== 'string') return undefined;
  const shell = utf8Length(JSON.stringify({ ...holder, [key]: '' }));
  return shell - 2 + jsonStringWireSize(big);
}

/**
 * Exact UTF-8 length of `JSON.stringify(block)`. The big field (`text`, `data`, `resource.text`,
 * `resource.blob`) is measured by a scan; only the small rest is stringified.
 */
export function contentWireSize(block: ContentBlock): number {
  const record = block as unknown as Record<string, unknown>;
  let size: number | undefined;
  switch (block.type) {
    case 'text':
      size = sizeWithBigField(record, 'text');
      break;
    case 'image':
    case 'audio':
      size = sizeWithBigField(record, 'data');
      break;
    case 'resource': {
      if (typeof block.resource !== 'object' || block.resource === null) break;
      const shell = utf8Length(JSON.stringify({ ...block, resource: 0 }));
      size = shell - 1 + resourceContentsWireSize(block.resource);
      break;
    }
    default:
      break;
  }
  return size ?? utf8Length(JSON.stringify(block));
}

/** Exact UTF-8 length of `JSON.stringify(contents)` for one `resources/read` contents item. */
export function resourceContentsWireSize(contents: ResourceContents): number {
  const record = contents as unknown as Record<string, unknown>;
  if (typeof record !== 'object' || record === null) return utf8Length(JSON.stringify(contents));
  const key = typeof record.text === 'string' ? 'text' : 'blob';
  return sizeWithBigField(record, key) ?? utf8Length(JSON.stringify(contents));
}
