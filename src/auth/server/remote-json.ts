/**
 * JSON documents fetched from authorization servers (metadata, JWKS), bounded in size and time,
 * through the SSRF guard. The trust rule: a URL the operator gave is trusted as given (its host
 * is exempt, loopback included); a URL learned from the network (a `jwks_uri` in metadata, a
 * redirect) is checked, loopback allowed only when this server itself listens on loopback.
 */
import { classifyAddress } from '../../guard/address.js';
import { createGuard, type Guard } from '../../guard/index.js';
import { isIP } from 'node:net';

/** The most bytes of an authorization server document read (1 MiB). */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;
/** The time a document fetch may take, redirects included (5 s). */
export const DOCUMENT_TIMEOUT_MS = 5_000;

const LOOPBACK_ALLOW = ['127.0.0.0/8', '::1', 'localhost'];

/** A JSON object fetched, with the headers it came with. */
export interface RemoteDocument {
  json: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Fetches JSON objects; `trusted` marks URLs the operator gave. */
export class RemoteJson {
  private readonly learned: Guard;
  private readonly trustedGuards = new Map<string, Guard>();

  constructor(
    private readonly trustedUrls: readonly string[],
    private readonly loopbackAllowed: boolean,
    private readonly timeoutMs: number = DOCUMENT_TIMEOUT_MS,
  ) {
    this.learned = this.guard([]);
  }

  private guard(allow: string[]): Guard {
    return createGuard({
      allow: this.loopbackAllowed ? [...allow, ...LOOPBACK_ALLOW] : allow,
      maxBytes: MAX_DOCUMENT_BYTES,
      timeoutMs: this.timeoutMs,
      maxRedirects: 3,
      headers: { accept: 'application/json' },
      noDowngrade: true,
    });
  }

  /** The guard for `url`: its host exempt when the operator gave that very URL. */
  private guardFor(url: string): Guard {
    if (!this.trustedUrls.includes(url)) return this.learned;
    const host = new URL(url).hostname;
    let guard = this.trustedGuards.get(host);
    if (!guard) {
      guard = this.guard([host.startsWith('[') ? host.slice(1, -1) : host]);
      this.trustedGuards.set(host, guard);
    }
    return guard;
  }

  /**
   * A URL learned from the network must be https; plain http only to loopback, and only when
   * this server listens on loopback (development).
   */
  private requireSecure(url: string): void {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:') return;
    const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const loopback =
      host === 'localhost' || (isIP(host) !== 0 && classifyAddress(host) === 'loopback');
    if (parsed.protocol === 'http:' && loopback && this.loopbackAllowed) return;
    throw new TypeError(
      `${parsed.origin}: a URL learned from the authorization server must use https`,
    );
  }

  /** The JSON object at `url`; throws on anything else (status, size, time, shape). */
  async get(url: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return (await this.document(url, signal)).json;
  }

  /** `get`, with the answer's headers (names lower-cased), for what they say about caching. */
  async document(url: string, signal?: AbortSignal): Promise<RemoteDocument> {
    const trusted = this.trustedUrls.includes(url);
    if (!trusted) this.requireSecure(url);
    const answer = await this.guardFor(url).fetch(url, signal ? { signal } : {});
    // Redirect targets are learned too (the guard already refused https to http): an answer
    // that came over plain http from elsewhere than the operator's own origin is not used.
    const origin = new URL(url).origin;
    for (const hop of answer.redirects)
      if (!(trusted && new URL(hop).origin === origin)) this.requireSecure(hop);
    const value: unknown = JSON.parse(new TextDecoder().decode(answer.bytes));
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new TypeError(`${url} did not answer a JSON object`);
    return { json: value as Record<string, unknown>, headers: answer.headers };
  }
}
