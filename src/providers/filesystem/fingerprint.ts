/** A short digest of a file's encoded contents: equal digests, same bytes served. */
import { createHash } from 'node:crypto';
import type { Fingerprint } from './content-baselines.js';
import type { ContentsOutcome } from './file-reader.js';
import type { FileContents } from './read-file.js';

/** Files whose contents take more than this on the wire are compared by size and times only. */
export const FINGERPRINT_MAX_WIRE_BYTES = 16 * 1024 * 1024;

/**
 * SHA-256 of the MIME type and the text or blob, as served; undefined when the read serves nothing
 * whole. Cached contents are one object per version: through `digests`, each is hashed once.
 */
export function fingerprintOfOutcome(
  outcome: ContentsOutcome,
  digests: WeakMap<FileContents, string>,
): Fingerprint | undefined {
  if (outcome.kind !== 'ok') return undefined;
  const { contents } = outcome;
  let digest = digests.get(contents);
  if (digest === undefined) {
    const hash = createHash('sha256').update(contents.mimeType).update('\0');
    if (contents.text !== undefined) hash.update('t').update(contents.text);
    else hash.update('b').update(contents.blob ?? '');
    digests.set(contents, (digest = hash.digest('base64')));
  }
  return { digest, size: contents.size, mtimeMs: contents.mtimeMs };
}
