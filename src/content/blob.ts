/** Base64 for blobs: fast (Buffer when present), stack-safe pure fallbacks, streaming encode. */
import { McpKitError } from '../errors/mcpkit-error.js';
import { base64Length, findBase64Problem } from '../protocol/base64.js';

const CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENC = new Uint8Array(64);
const DEC = new Uint8Array(128);
for (let i = 0; i < 64; i++) {
  ENC[i] = CHARS.charCodeAt(i);
  DEC[CHARS.charCodeAt(i)] = i;
}
const ascii = new TextDecoder();
const hasBuffer = typeof Buffer !== 'undefined';

/** Portable base64 encoder (no Buffer, no spread, no recursion): one output array, one decode. */
export function encodeBase64Pure(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(base64Length(n));
  let o = 0;
  let i = 0;
  for (const end = n - (n % 3); i < end; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = ENC[v >>> 18]!;
    out[o++] = ENC[(v >>> 12) & 63]!;
    out[o++] = ENC[(v >>> 6) & 63]!;
    out[o++] = ENC[v & 63]!;
  }
  if (i < n) {
    const two = i + 1 < n;
    const v = (bytes[i]! << 16) | (two ? bytes[i + 1]! << 8 : 0);
    out[o++] = ENC[v >>> 18]!;
    out[o++] = ENC[(v >>> 12) & 63]!;
    out[o++] = two ? ENC[(v >>> 6) & 63]! : 61;
    out[o++] = 61;
  }
  return ascii.decode(out);
}

/** Portable decoder of a string already known to be canonical base64. */
export function decodeBase64Pure(b64: string): Uint8Array {
  let pad = 0;
  if (b64.endsWith('==')) pad = 2;
  else if (b64.endsWith('=')) pad = 1;
  const out = new Uint8Array((b64.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < b64.length; i += 4) {
    const v =
      (DEC[b64.charCodeAt(i)]! << 18) |
      (DEC[b64.charCodeAt(i + 1)]! << 12) |
      (DEC[b64.charCodeAt(i + 2)]! << 6) |
      DEC[b64.charCodeAt(i + 3)]!;
    out[o++] = v >>> 16;
    if (o < out.length) out[o++] = (v >>> 8) & 255;
    if (o < out.length) out[o++] = v & 255;
  }
  return out;
}

/**
 * Encodes bytes as canonical base64 (Buffer fast path; a pure loop elsewhere, safe at any size).
 *
 * @example
 * encodeBase64(new TextEncoder().encode('hi')); // 'aGk='
 */
export function encodeBase64(bytes: Uint8Array): string {
  if (!hasBuffer) return encodeBase64Pure(bytes);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length <= HEAP_SLICE_BYTES) return buffer.toString('base64');
  // Node returns a base64 string over ~1 MB as an external string, freed only by a full
  // collection: a walk of many parts would pile them up. Slices this small stay on the V8
  // heap, where the young generation collects them at once.
  let out = '';
  for (let at = 0; at < buffer.length; at += HEAP_SLICE_BYTES)
    out += buffer.toString('base64', at, Math.min(at + HEAP_SLICE_BYTES, buffer.length));
  return out;
}

/** Input bytes per base64 slice: a multiple of 3 (no padding inside), output under 1 MB. */
const HEAP_SLICE_BYTES = 3 * 128 * 1024;

/**
 * Decodes canonical base64 (standard alphabet, padding, zero pad bits). Checks first, by a linear
 * scan; throws McpKitError `INVALID_BASE64` naming the offset of the first bad character.
 */
export function decodeBase64(b64: string): Uint8Array {
  const problem = findBase64Problem(b64);
  if (problem !== undefined) {
    throw new McpKitError(
      'INVALID_BASE64',
      `base64 is not canonical at offset ${problem.offset} (${problem.reason})`,
    );
  }
  if (hasBuffer) {
    const buf = Buffer.from(b64, 'base64');
    // A small one is a slice of Node's shared 8 KiB pool: whoever keeps it (a host's link
    // cache, an artifact) would keep the whole block, which its own count does not see.
    if (buf.buffer.byteLength !== buf.byteLength) return new Uint8Array(buf);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  return decodeBase64Pure(b64);
}

/** Wire bytes of a blob of `rawBytes` raw bytes once base64-encoded: 4 * ceil(n / 3). */
export function blobWireSize(rawBytes: number): number {
  if (!Number.isSafeInteger(rawBytes) || rawBytes < 0) {
    throw new RangeError(`blobWireSize: rawBytes must be a non-negative integer, got ${rawBytes}`);
  }
  return base64Length(rawBytes);
}

/** Options of `encodeBase64Stream`. */
export interface EncodeBase64StreamOptions {
  /** Fail with `BLOB_TOO_LARGE` as soon as more raw bytes than this arrive. */
  maxBytes?: number | undefined;
}

/**
 * Encodes a byte stream as one base64 string, chunk by chunk in 3-byte-aligned steps: the raw bytes
 * are never held whole (at most two carried bytes), only the growing base64 text.
 * Throws McpKitError `BLOB_TOO_LARGE` naming the limit once `maxBytes` is exceeded.
 *
 * @example
 * const { base64, bytes } = await encodeBase64Stream(file.stream(), { maxBytes: 8 << 20 });
 */
export async function encodeBase64Stream(
  source: AsyncIterable<Uint8Array>,
  options: EncodeBase64StreamOptions = {},
): Promise<{ base64: string; bytes: number }> {
  const { maxBytes } = options;
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes >= 0)) {
    throw new RangeError(
      `encodeBase64Stream: maxBytes must be a non-negative integer, got ${maxBytes}`,
    );
  }
  const parts: string[] = [];
  const carry = new Uint8Array(3);
  let carried = 0;
  let bytes = 0;
  for await (const chunk of source) {
    bytes += chunk.length;
    if (maxBytes !== undefined && bytes > maxBytes) {
      throw new McpKitError(
        'BLOB_TOO_LARGE',
        `blob exceeds maxBytes (${maxBytes} bytes) after ${bytes} bytes; link to it instead of embedding, or raise maxBytes`,
      );
    }
    let start = 0;
    if (carried > 0) {
      while (carried < 3 && start < chunk.length) carry[carried++] = chunk[start++]!;
      if (carried < 3) continue;
      parts.push(encodeBase64(carry));
      carried = 0;
    }
    const end = chunk.length - ((chunk.length - start) % 3);
    if (end > start) parts.push(encodeBase64(chunk.subarray(start, end)));
    for (let i = end; i < chunk.length; i++) carry[carried++] = chunk[i]!;
  }
  if (carried > 0) parts.push(encodeBase64(carry.subarray(0, carried)));
  return { base64: parts.join(''), bytes };
}

/**
 * Repairs common non-canonical base64 (line breaks and spaces, the URL-safe alphabet, missing
 * padding, non-zero pad bits). Returns the canonical string and what was fixed, or undefined when
 * the text is not base64 at all. Only for received content (lenient parsing).
 */
export function repairBase64(value: string): { base64: string; fixes: string[] } | undefined {
  const fixes = new Set<string>();
  let end = value.length;
  let equals = 0;
  while (end > 0) {
    const c = value.charCodeAt(end - 1);
    if (c === 61) equals++;
    else if (isSpace(c)) fixes.add('removed whitespace');
    else break;
    end--;
  }
  const out: string[] = [];
  let run = 0;
  for (let i = 0; i < end; i++) {
    const c = value.charCodeAt(i);
    if (c < 128 && (DEC[c] !== 0 || c === 65)) continue;
    if (isSpace(c)) fixes.add('removed whitespace');
    else if (c === 45 || c === 95) fixes.add('converted the URL-safe alphabet');
    else return undefined;
    out.push(value.slice(run, i));
    if (c === 45) out.push('+');
    else if (c === 95) out.push('/');
    run = i + 1;
  }
  out.push(value.slice(run, end));
  let body = out.join('');
  const rest = body.length % 4;
  if (rest === 1) return undefined;
  const needed = rest === 0 ? 0 : 4 - rest;
  if (needed !== equals) fixes.add('fixed the padding');
  body += '='.repeat(needed);
  if (findBase64Problem(body) !== undefined) {
    // Only non-zero pad bits can remain: re-encoding the decoded bytes clears them.
    body = encodeBase64(decodeBase64Pure(body));
    fixes.add('cleared non-zero pad bits');
  }
  return { base64: body, fixes: [...fixes] };
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}
