/**
 * JSON documents fetched from authorization servers (metadata, JWKS), bounded in size and time,
 * through the SSRF guard. The trust rule: a URL the operator gave is trusted as given (its host
 * is exempt, loopback included); a URL learned from the network (a `jwks_uri` in metadata, a
 * redirect) is checked, loopback allowed only when this server itself listens on loopback.
 */
import { createGuard, type Guard } from '../../guard/index.js';

/** The most bytes of an authorization server document read (1 MiB). */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;
/** The time a document fetch may take, redirects included (5 s). */
export const DOCUMENT_TIMEOUT_MS = 5_000;

const LOOPBACK_ALLOW = ['127.0.0.0/8', '::1', 'localhost'];

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

  /** The JSON object at `url`; throws on anything else (status, size, time, shape). */
  async get(url: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const answer = await this.guardFor(url).fetch(url, signal ? { signal } : {});
    const value: unknown = JSON.parse(new TextDecoder().decode(answer.bytes));
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new TypeError(`${url} did not answer a JSON object`);
    return value as Record<string, unknown>;
  }
}
