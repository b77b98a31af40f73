import type { Era } from '../../protocol/index.js';
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

  /** The id the server gave, whatever the era (for diagnostics). */
  get sessionId(): string | undefined {
    return this.id;
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
    if (this.id === id) this.id = undefined;
  }

  reset(): void {
    this.id = undefined;
  }

  /** Back to a fresh connection: no session, no era (the core detects it again). */
  clear(): void {
    this.id = undefined;
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
