import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StoredArtifact } from '../server/index.js';

/**
 * The MAC that seals an artifact record in Redis: HMAC-SHA-256 under a key derived from the
 * shared secret (its own key, so that it can never pass for an artifact URI, which is an HMAC
 * under the secret itself), over the URI, every metadata field and the content. Whoever can
 * write to Redis but does not hold the secret can delete records, never forge or move one.
 */
export class ArtifactSeal {
  private readonly key: Buffer;

  constructor(secret: string | Uint8Array) {
    this.key = createHmac('sha256', secret).update('mcpkit artifact record v1').digest();
  }

  /** The hex MAC of `artifact` as it is stored. */
  mac(artifact: StoredArtifact): string {
    const kind = artifact.text !== undefined ? 't' : 'b';
    // JSON holds no raw newline: the first one ends the header, the content is all the rest.
    const header = JSON.stringify([
      artifact.uri,
      artifact.name,
      artifact.mimeType,
      artifact.size,
      artifact.expiresAt,
      kind,
    ]);
    return createHmac('sha256', this.key)
      .update(`${header}\n`)
      .update(artifact.text ?? artifact.blob ?? '')
      .digest('hex');
  }

  /** Whether `mac` (as read from Redis, any value) is the MAC of `artifact`; timing-safe. */
  verify(artifact: StoredArtifact, mac: unknown): boolean {
    if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
    return timingSafeEqual(Buffer.from(this.mac(artifact), 'hex'), Buffer.from(mac, 'hex'));
  }
}
