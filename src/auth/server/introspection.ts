/**
 * Opaque tokens checked by token introspection (RFC 7662), answers kept a short while in a
 * bounded cache keyed by a hash of the token (the token itself is not kept).
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from '../../server/transport.js';
import { authInfoOfClaims, MAX_CLOCK_SKEW_S } from './jwt-verifier.js';
import { MAX_DOCUMENT_BYTES } from './remote-json.js';
import { TokenRejected, TokenUnverifiable } from './token-errors.js';
import { basicCredentials } from '../basic-credentials.js';

export interface IntrospectionOptions {
  /** The introspection endpoint (operator-given: trusted as given). */
  url: string;
  clientId: string;
  clientSecret: string;
  /** How long an answer is kept (default 30 s; never past the token's `exp`). */
  cacheMs?: number;
  /** Most answers kept (default 1000). */
  maxCached?: number;
  /**
   * Most negative answers (inactive tokens) kept, apart from the active ones so that a flood of
   * bad tokens cannot push valid ones out (default 100).
   */
  maxCachedInactive?: number;
  /** Most introspection calls under way at once; past it a request is answered 503 (default 16). */
  maxConcurrent?: number;
  /** The time an introspection may take (default 5 s). */
  timeoutMs?: number;
}

interface Cached {
  /** undefined: the token is not active. */
  auth: AuthInfo | undefined;
  until: number;
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
  private readonly inactive = new Map<string, Cached>();
  /** Calls under way by token hash: the same token checked at once is asked once. */
  private readonly inFlight = new Map<string, Promise<AuthInfo | undefined>>();
  private readonly cacheMs: number;
  private readonly maxCached: number;
  private readonly maxInactive: number;
  private readonly maxConcurrent: number;

  constructor(
    private readonly options: IntrospectionOptions,
    private readonly issuer: string | undefined,
    private readonly audience: () => string,
    private readonly now: () => number = Date.now,
  ) {
    this.cacheMs = options.cacheMs ?? 30_000;
    this.maxCached = options.maxCached ?? 1000;
    this.maxInactive = options.maxCachedInactive ?? 100;
    this.maxConcurrent = options.maxConcurrent ?? 16;
  }

  async verify(token: string): Promise<AuthInfo> {
    const key = createHash('sha256').update(token).digest('base64url');
    const now = this.now();
    const hit = fresh(this.cache, key, now) ?? fresh(this.inactive, key, now);
    const auth = hit ? hit.auth : await this.shared(token, key, now);
    if (!auth) throw new TokenRejected('inactive');
    if (auth.expiresAt !== undefined && auth.expiresAt + MAX_CLOCK_SKEW_S < now / 1000)
      throw new TokenRejected('expired');
    return auth;
  }

  /** One call per token at a time, and at most maxConcurrent calls in all. */
  private shared(token: string, key: string, now: number): Promise<AuthInfo | undefined> {
    const running = this.inFlight.get(key);
    if (running) return running;
    if (this.inFlight.size >= this.maxConcurrent)
      return Promise.reject(
        new TokenUnverifiable(`${this.maxConcurrent} introspection calls are already under way`),
      );
    const call = this.introspect(token, key, now).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, call);
    return call;
  }

  private async introspect(token: string, key: string, now: number): Promise<AuthInfo | undefined> {
    let claims: Record<string, unknown>;
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: {
          authorization: basicCredentials(this.options.clientId, this.options.clientSecret),
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
    const entry = { auth, until: Math.min(now + this.cacheMs, expires) };
    if (auth) remember(this.cache, this.maxCached, key, entry);
    else remember(this.inactive, this.maxInactive, key, entry);
    return auth;
  }

  /** Active, from our issuer (when it says), for this resource (when it names an audience). */
  private accepted(claims: Record<string, unknown>): boolean {
    if (claims['active'] !== true) return false;
    // A refresh token is never an access token, whatever the server says of its activity.
    if (claims['token_type'] === 'refresh_token') return false;
    if (this.issuer !== undefined && claims['iss'] !== undefined && claims['iss'] !== this.issuer)
      return false;
    const aud = claims['aud'];
    if (aud === undefined) return true;
    const audience = this.audience();
    return Array.isArray(aud) ? aud.includes(audience) : aud === audience;
  }
}

/** The entry of `key` while it holds; an outlived one is dropped. */
function fresh(cache: Map<string, Cached>, key: string, now: number): Cached | undefined {
  const hit = cache.get(key);
  if (hit === undefined || hit.until > now) return hit;
  cache.delete(key);
  return undefined;
}

function remember(cache: Map<string, Cached>, max: number, key: string, entry: Cached): void {
  if (max <= 0) return;
  // Oldest first out: a Map iterates in insertion order.
  while (cache.size >= max) cache.delete(cache.keys().next().value as string);
  cache.set(key, entry);
}
