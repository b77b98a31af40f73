import { ERROR_CODES } from '../../../protocol/error-codes.js';
import { requestEra } from '../../../protocol/era.js';
import { isRequestId } from '../../../protocol/jsonrpc.js';
import { MODERN_VERSIONS, type Era } from '../../../protocol/versions.js';
import { unsupportedVersion } from '../../../errors/wire-errors.js';
import type { Peer } from '../../../server/transport.js';
import type { HttpExchange } from './exchange.js';
import type { LegacyHttpSession, SessionTable } from './sessions.js';

type Body = Record<string, unknown>;

/** Where a POST goes, or the HTTP error that answers it. */
export type Route =
  | { peer: Peer; era: Era; session?: LegacyHttpSession; isNew?: boolean }
  | { status: number; code: number; message: string; data?: unknown };

/**
 * Picks the peer for a POST: the stateless one (2026-07-28), an existing legacy session, or a
 * new one; or the HTTP error to answer with. The era is decided here, once, and handed to the
 * engine with the message.
 */
export function routePost(
  ex: HttpExchange,
  body: unknown,
  stateless: Peer,
  sessions: SessionTable,
  legacy: boolean,
  /** The authenticated caller's key: sessions are theirs alone. */
  caller?: string,
): Route {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Body;
  const sessionId = ex.header('mcp-session-id');
  const era = requestEra({
    method: String(b['method']),
    params: b['params'],
    headerVersion: ex.header('mcp-protocol-version'),
    inSession: sessionId !== undefined,
  });
  if (era === 'modern' || Array.isArray(body)) return { peer: stateless, era: 'modern' };
  // Only a request (with an id) opens a session: an `initialize` notification gets no answer
  // to carry the session id, so its session could never be used nor committed.
  if (b['method'] === 'initialize' && sessionId === undefined && isRequestId(b['id'])) {
    if (!legacy) {
      const params = b['params'] as Body | undefined;
      const requested = params?.['protocolVersion'];
      const error = unsupportedVersion(
        typeof requested === 'string' ? requested : undefined,
        MODERN_VERSIONS,
        'This server speaks 2026-07-28 only; send _meta with every request instead of initialize',
      );
      return { status: 400, code: error.code, message: error.message, data: error.data };
    }
    // Reserves its place at once: sessions still initializing count against maxSessions.
    const session = sessions.create(caller);
    if (!session)
      return {
        status: 503,
        code: ERROR_CODES.INTERNAL_ERROR,
        message:
          'Too many sessions (maxSessions), none of them idle (each has a GET stream or a request ' +
          'in flight, or is initializing); try again later',
      };
    return { peer: session.peer, era, session, isNew: true };
  }
  if (sessionId !== undefined) {
    const session = sessions.get(sessionId, caller);
    if (!session)
      return {
        status: 404,
        code: ERROR_CODES.INVALID_REQUEST,
        message: 'Session not found: initialize again',
      };
    return { peer: session.peer, era, session };
  }
  // An initialize that is no request (a notification, a bad id): the engine explains.
  return { peer: stateless, era };
}
