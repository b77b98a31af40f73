/**
 * Opaque tokens checked by token introspection (RFC 7662), answers kept a short while in a
 * bounded cache keyed by a hash of the token (the token itself is not kept).
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from '../../server/transport.js';
import { authInfoOfClaims, MAX_CLOCK_SKEW_S } from './jwt-verifier.js';
import { MAX_DOCUMENT_BYTES } from './remote-json.js';
import { TokenRejected, TokenUnverifiable } from './token-errors.js';

export interface IntrospectionOptions {
  /** The introspection endpoint (operator-given: trusted as given). */
  url: string;
  clientId: string;
  clientSecret: string;
  /** How long an answer is kept (default 30 s; never past the token's `exp`). */
  cacheMs?: number;
  /** Most answers kept (default 1000). */
  maxCached?: number;
  /** The time an introspection may take (default 5 s). */
  timeoutMs?: number;
}

interface Cached {
  /** undefined: the token is not active. */
  auth: AuthInfo | undefined;
  until: number;
}

/** RFC 6749 §2.3.1: client credentials are form-encoded before Basic. */
function basic(id: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}

async function readCapped(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new Error(`the answer passed ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class Introspector {
  private readonly cache = new Map<string, Cached>();
  private readonly cacheMs: number;
  private readonly maxCached: number;

  constructor(
    private readonly options: IntrospectionOptions,
    private readonly issuer: string | undefined,
    private readonly audience: () => string,
    private readonly now: () => number = Date.now,
  ) {
    this.cacheMs = options.cacheMs ?? 30_000;
    this.maxCached = options.maxCached ?? 1000;
  }

  async verify(token: string): Promise<AuthInfo> {
    const key = createHash('sha256').update(token).digest('base64url');
    const now = this.now();
    let hit = this.cache.get(key);
    if (hit && hit.until <= now) {
      this.cache.delete(key);
      hit = undefined;
    }
    const auth = hit ? hit.auth : await this.introspect(token, key, now);
    if (!auth) throw new TokenRejected('inactive');
    if (auth.expiresAt !== undefined && auth.expiresAt + MAX_CLOCK_SKEW_S < now / 1000)
      throw new TokenRejected('expired');
    return auth;
  }

  private async introspect(token: string, key: string, now: number): Promise<AuthInfo | undefined> {
    let claims: Record<string, unknown>;
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: {
          authorization: basic(this.options.clientId, this.options.clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
      });
      const text = await readCapped(response, MAX_DOCUMENT_BYTES);
      if (!response.ok) throw new Error(`status ${response.status}`);
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'object' || value === null) throw new Error('not a JSON object');
      claims = value as Record<string, unknown>;
    } catch (error) {
      throw new TokenUnverifiable(
        `introspection at ${this.options.url} failed: ${(error as Error).message}`,
      );
    }
    const auth = this.accepted(claims) ? authInfoOfClaims(claims) : undefined;
    const expires = typeof claims['exp'] === 'number' ? claims['exp'] * 1000 : Infinity;
    this.remember(key, { auth, until: Math.min(now + this.cacheMs, expires) });
    return auth;
  }

  /** Active, from our issuer (when it says), for this resource (when it names an audience). */
  private accepted(claims: Record<string, unknown>): boolean {
    if (claims['active'] !== true) return false;
    if (this.issuer !== undefined && claims['iss'] !== undefined && claims['iss'] !== this.issuer)
      return false;
    const aud = claims['aud'];
    if (aud === undefined) return true;
    const audience = this.audience();
    return Array.isArray(aud) ? aud.includes(audience) : aud === audience;
  }

  private remember(key: string, entry: Cached): void {
    // Oldest first out: a Map iterates in insertion order.
    while (this.cache.size >= this.maxCached) {
      const oldest = this.cache.keys().next().value as string;
      this.cache.delete(oldest);
    }
    this.cache.set(key, entry);
  }
}
