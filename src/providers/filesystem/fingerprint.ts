/** A short digest of a file's encoded contents: equal digests, same bytes served. */
import { createHash } from 'node:crypto';
import type { FileContents } from './read-file.js';

/** Files whose contents take more than this on the wire are compared by size and times only. */
export const FINGERPRINT_MAX_WIRE_BYTES = 16 * 1024 * 1024;

/**
 * SHA-256 of the MIME type and the text or blob, as served. Cached contents are one object per
 * version: with `digests` (the provider's own), each is hashed once.
 */
export function fingerprintOf(
  contents: FileContents,
  digests?: WeakMap<FileContents, string>,
): string {
  let digest = digests?.get(contents);
  if (digest === undefined) {
    const hash = createHash('sha256').update(contents.mimeType).update('\0');
    if (contents.text !== undefined) hash.update('t').update(contents.text);
    else hash.update('b').update(contents.blob ?? '');
    digest = hash.digest('base64');
    digests?.set(contents, digest);
  }
  return digest;
}
