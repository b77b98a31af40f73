/** PKCE (RFC 7636, S256 only) and the `state` of an authorization request. */
import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  verifier: string;
  challenge: string;
}

/** A fresh verifier (43 characters of base64url, 256 bits) and its S256 challenge. */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An unguessable `state`. */
export function createState(): string {
  return randomBytes(24).toString('base64url');
}
