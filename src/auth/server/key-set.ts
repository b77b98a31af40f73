/**
 * The issuer's signing keys (JWKS): found lazily (from the operator's `jwksUri`, else the
 * issuer's metadata), fetched on first use, kept as long as the answer's `Cache-Control` says
 * (bounded: 1 minute .. 24 hours, 10 minutes when it says nothing), and fetched again for an
 * unknown `kid` at most once a minute; keys past their age keep answering while the fresh ones
 * are fetched in the background. A failed fetch is remembered briefly, so that an
 * authorization server that is down or hangs costs each request nothing more than a quick 503;
 * keys already held stay in use while it is down.
 */
import {
  createLocalJWKSet,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWSHeaderParameters,
} from 'jose';
import { authorizationServerMetadataUrls } from '../metadata.js';
import { keysLifetimeMs } from './keys-lifetime.js';
import type { RemoteJson } from './remote-json.js';

/** An unknown `kid` fetches the key set again at most this often (1 minute). */
export const KID_REFRESH_MS = 60_000;
/** How long a failed fetch answers for itself before the next request tries again (5 s). */
export const FAILURE_HOLD_MS = 5_000;

type LocalSet = ReturnType<typeof createLocalJWKSet>;
type Verifier = (header: JWSHeaderParameters, token: FlattenedJWSInput) => ReturnType<LocalSet>;

/** The key set could not be had: the authorization server is unreachable or answered badly. */
export class KeySetUnavailable extends Error {
  override readonly name = 'KeySetUnavailable';
}

export interface KeySetSource {
  issuer: string;
  /** The operator's JWKS URL; without it, `jwks_uri` of the issuer's metadata. */
  jwksUri?: string;
  documents: Pick<RemoteJson, 'get' | 'document'>;
  now?: () => number;
}

export class KeySet {
  private set: LocalSet | undefined;
  private fetchedAt = -Infinity;
  /** When the held keys are due to be fetched again. */
  private expiresAt = -Infinity;
  private loading: Promise<LocalSet> | undefined;
  private failure: { error: Error; at: number } | undefined;
  private jwksUri: string | undefined;
  private readonly now: () => number;

  constructor(private readonly source: KeySetSource) {
    this.jwksUri = source.jwksUri;
    this.now = source.now ?? Date.now;
  }

  /** The key resolver for jose's `jwtVerify`. */
  readonly resolve: Verifier = async (header, token) => {
    const set = await this.current(false);
    try {
      return await set(header, token);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'ERR_JWKS_NO_MATCHING_KEY' || this.now() - this.fetchedAt < KID_REFRESH_MS)
        throw error;
      return (await this.current(true))(header, token);
    }
  };

  private async current(refresh: boolean): Promise<LocalSet> {
    if (this.set && !refresh) {
      // Keys past their age answer while fresh ones are fetched: an authorization server that
      // is slow or down costs no request a wait.
      if (this.now() >= this.expiresAt && !this.loading && !this.holdingFailure())
        this.startLoad().catch(() => undefined);
      return this.set;
    }
    if (this.loading) return this.loading;
    if (this.holdingFailure()) {
      // Refreshing for a kid: the keys we have still answer (the kid is then simply unknown).
      if (this.set) return this.set;
      throw (this.failure as { error: Error }).error;
    }
    return this.startLoad();
  }

  private holdingFailure(): boolean {
    return this.failure !== undefined && this.now() - this.failure.at < FAILURE_HOLD_MS;
  }

  private startLoad(): Promise<LocalSet> {
    this.loading = this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<LocalSet> {
    // Counted from the attempt: a failing refresh does not retry on every unknown kid either.
    this.fetchedAt = this.now();
    try {
      const uri = (this.jwksUri ??= await this.discover());
      const { json: jwks, headers } = await this.source.documents.document(uri);
      if (!Array.isArray(jwks['keys'])) throw new TypeError(`${uri} has no "keys" array`);
      this.set = createLocalJWKSet(jwks as unknown as JSONWebKeySet);
      this.expiresAt = this.now() + keysLifetimeMs(headers['cache-control'], headers['age']);
      this.failure = undefined;
      return this.set;
    } catch (error) {
      const wrapped = new KeySetUnavailable(
        `the signing keys of ${this.source.issuer} could not be fetched: ${(error as Error).message}`,
        { cause: error },
      );
      this.failure = { error: wrapped, at: this.now() };
      if (this.set) return this.set;
      throw wrapped;
    }
  }

  /** `jwks_uri` from the issuer's metadata (RFC 8414, then OIDC discovery), issuer checked. */
  private async discover(): Promise<string> {
    const problems: string[] = [];
    for (const url of authorizationServerMetadataUrls(this.source.issuer)) {
      let metadata: Record<string, unknown>;
      try {
        metadata = await this.source.documents.get(url);
      } catch (error) {
        problems.push((error as Error).message);
        continue;
      }
      // RFC 8414 §3.3: metadata naming another issuer is not this issuer's.
      if (metadata['issuer'] !== this.source.issuer)
        throw new TypeError(
          `${url} names issuer ${JSON.stringify(metadata['issuer'])}, not ${this.source.issuer}`,
        );
      const jwks = metadata['jwks_uri'];
      if (typeof jwks !== 'string') throw new TypeError(`${url} has no jwks_uri`);
      return jwks;
    }
    throw new TypeError(`no authorization server metadata: ${problems.join('; ')}`);
  }
}
