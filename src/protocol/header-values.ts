/** Header encodings of 2026-07-28 (`Mcp-Name`, `Mcp-Param-*`). */
import { isBase64 } from './base64.js';

const PREFIX = '=?base64?';
const SUFFIX = '?=';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes a header value, including the `=?base64?…?=` form; undefined when malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith(PREFIX) && value.endsWith(SUFFIX))) return value;
  const b64 = value.slice(PREFIX.length, value.length - SUFFIX.length);
  // atob forgives missing padding; the spec wants canonical base64 only.
  if (!isBase64(b64)) return undefined;
  try {
    const binary = atob(b64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The header form of a tool argument: strings as-is, numbers and booleans as JSON. */
export function headerFormOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

// Printable ASCII without leading or trailing whitespace travels as-is (SEP-2243).
const SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Encodes a header value: as-is when it is safe ASCII, else `=?base64?<UTF-8 base64>?=`. */
export function encodeHeaderValue(value: string): string {
  if (value === '' || SAFE.test(value)) {
    if (!(value.startsWith(PREFIX) && value.endsWith(SUFFIX))) return value;
  }
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return `${PREFIX}${btoa(binary)}${SUFFIX}`;
}
