/** A short digest of a file's encoded contents: equal digests, same bytes served. */
import { createHash } from 'node:crypto';
import type { FileContents } from './read-file.js';

/** Files whose contents take more than this on the wire are compared by size and times only. */
export const FINGERPRINT_MAX_WIRE_BYTES = 16 * 1024 * 1024;

/** Cached contents are one object per version: each is hashed once. */
const digests = new WeakMap<FileContents, string>();

/** SHA-256 of the MIME type and the text or blob, as served. */
export function fingerprintOf(contents: FileContents): string {
  let digest = digests.get(contents);
  if (digest === undefined) {
    const hash = createHash('sha256').update(contents.mimeType).update('\0');
    if (contents.text !== undefined) hash.update('t').update(contents.text);
    else hash.update('b').update(contents.blob ?? '');
    digest = hash.digest('base64');
    digests.set(contents, digest);
  }
  return digest;
}
