import type { Era } from '../../../protocol/index.js';
import type { HttpAnswer } from './client-requester.js';

export const SESSION_HEADER = 'mcp-session-id';
export const VERSION_HEADER = 'mcp-protocol-version';

/** A session id is visible ASCII only (2025-11-25, Streamable HTTP "Session Management"). */
const VALID_SESSION_ID = /^[\x21-\x7e]{1,1024}$/;

/**
 * The client side of a 2025-11-25 session: the id the server minted, sent back on every request
 * once the connection speaks that era. 2026-07-28 has no sessions, so nothing is sent there.
 */
export class ClientSession {
  era: Era | undefined;
  protocolVersion: string | undefined;
  private id: string | undefined;
  /** The session the server said it no longer knows (a 404), until a new `initialize`. */
  private expiredId: string | undefined;

  /** The id the server gave, whatever the era (for diagnostics). */
  get sessionId(): string | undefined {
    return this.id;
  }

  /**
   * The 2025-11-25 session that expired (a 404 to a POST or a GET), while no new one replaced
   * it: nothing but `initialize` can go out then (the server would answer 400 to a request
   * without the id, which says nothing of the expiry), so requests fail with SESSION_EXPIRED
   * and the core initializes again.
   */
  get expired(): string | undefined {
    return this.era === 'legacy' ? this.expiredId : undefined;
  }

  /** The session id to send, if this era has one. */
  get header(): string | undefined {
    return this.era === 'legacy' ? this.id : undefined;
  }

  /**
   * Takes the session id off a response: the answer to `initialize` sets (or replaces) it (the
   * era is not known yet then), any other answer of a 2025-11-25 connection only when none is
   * known. Returns a warning when the server sent a bad one.
   */
  capture(response: HttpAnswer, initialize: boolean): string | undefined {
    if (!initialize && this.era === 'modern') return undefined;
    // An answer to `initialize` starts afresh, with a session id or without one.
    if (initialize) this.expiredId = undefined;
    const value = response.header(SESSION_HEADER);
    if (value === null || (this.id !== undefined && !initialize)) return undefined;
    if (!VALID_SESSION_ID.test(value)) {
      return `ignored an Mcp-Session-Id that is not 1 to 1024 visible ASCII characters`;
    }
    this.id = value;
    return undefined;
  }

  /** Forgets the session if it is still `id` (a newer one may have replaced it meanwhile). */
  expire(id: string): void {
    if (this.id !== id) return;
    this.id = undefined;
    this.expiredId = id;
  }

  /** Forgets the session, expired or not: the core is about to initialize again. */
  reset(): void {
    this.id = undefined;
    this.expiredId = undefined;
  }

  /** Back to a fresh connection: no session, no era (the core detects it again). */
  clear(): void {
    this.reset();
    this.era = undefined;
    this.protocolVersion = undefined;
  }

  /** The headers a GET or DELETE of this session carries (POSTs get theirs from the core). */
  streamHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    const id = this.header;
    if (id !== undefined) headers[SESSION_HEADER] = id;
    if (this.protocolVersion !== undefined) headers[VERSION_HEADER] = this.protocolVersion;
    return headers;
  }
}
