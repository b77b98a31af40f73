/** base64url helpers on web-standard APIs (the core does no Node I/O). */
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function base64UrlToBytes(value: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return undefined;
  try {
    const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

export function encodeJsonBase64Url(value: unknown): string {
  return bytesToBase64Url(encoder.encode(JSON.stringify(value)));
}

export function decodeJsonBase64Url(value: string): unknown {
  const bytes = base64UrlToBytes(value);
  if (!bytes) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

export function utf8(value: string): Uint8Array {
  return encoder.encode(value);
}

export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export type HmacKey = ReturnType<typeof crypto.subtle.importKey>;

/** An HMAC-SHA-256 key of `secret`, or of 32 random bytes when there is none. */
export function hmacKey(
  secret: string | Uint8Array | undefined,
  usages: Array<'sign' | 'verify'>,
): HmacKey {
  const raw =
    secret === undefined
      ? crypto.getRandomValues(new Uint8Array(32))
      : typeof secret === 'string'
        ? utf8(secret)
        : secret;
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, usages);
}
