import { ERROR_CODES } from '../../../protocol/error-codes.js';
import { onTokenExpiry, type AuthInfo } from '../../../server/transport.js';
import type { HttpExchange, HttpResponder } from './exchange.js';
import { DEFAULT_KEEP_ALIVE_MS, type HttpOptions } from './options.js';
import { jsonError } from './json-error.js';
import type { SessionTable } from './sessions.js';
import { SSE_HEADERS, startKeepAlive } from './sse.js';

/** The session id of a GET or DELETE, or undefined after answering 405 (no sessions here). */
function sessionIdOr405(
  options: HttpOptions,
  ex: HttpExchange,
  res: HttpResponder,
  why: string,
): string | undefined {
  const id = ex.header('mcp-session-id');
  if (id !== undefined && options.legacy !== false) return id;
  jsonError(res, 405, ERROR_CODES.INVALID_REQUEST, `Method Not Allowed: ${why}`, null, {
    allow: 'POST',
  });
  return undefined;
}

/**
 * GET with a session id: the 2025-11-25 standalone stream for server-initiated messages. It ends
 * when the caller's token runs out (`auth`): the client opens it again with a fresh one.
 */
export function openSessionStream(
  sessions: SessionTable,
  options: HttpOptions,
  ex: HttpExchange,
  res: HttpResponder,
  caller?: string,
  auth?: AuthInfo,
): void {
  const id = sessionIdOr405(
    options,
    ex,
    res,
    '2026-07-28 uses POST only (GET streams belong to 2025-11-25 sessions)',
  );
  if (id === undefined) return;
  const session = sessions.get(id, caller);
  if (!session)
    return jsonError(res, 404, ERROR_CODES.INVALID_REQUEST, 'Session not found: initialize again');
  if (session.stream)
    return jsonError(
      res,
      409,
      ERROR_CODES.INVALID_REQUEST,
      'Conflict: this session already has a GET stream',
    );
  const sink = res.stream(200, { ...SSE_HEADERS, 'mcp-session-id': id });
  session.stream = sink;
  sink.write(': stream open\n\n');
  const stopKeepAlive = startKeepAlive(sink, options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
  const done = (): void => {
    stopKeepAlive();
    stopExpiry();
    if (session.stream === sink) session.stream = undefined;
    if (session.endStream === end) session.endStream = undefined;
    // Idle from now on: its eviction order counts from here, not from when the stream opened.
    sessions.touch(session);
    // A client that reopens its GET stream must not pile up close handlers on the session.
    offClose();
  };
  const end = (): void => {
    done();
    sink.end();
  };
  // How the session table ends this stream (a client that stopped reading): with its cleanup.
  session.endStream = end;
  const offClose = session.peer.onClose(end);
  const stopExpiry = onTokenExpiry(auth, end);
  const signal = ex.signal;
  if (signal.aborted) done();
  else signal.addEventListener('abort', done, { once: true });
}

/** DELETE with a session id: ends a 2025-11-25 session. */
export function deleteSession(
  sessions: SessionTable,
  options: HttpOptions,
  ex: HttpExchange,
  res: HttpResponder,
  caller?: string,
): void {
  const id = sessionIdOr405(options, ex, res, '2026-07-28 has no sessions to delete');
  if (id === undefined) return;
  if (!sessions.delete(id, caller))
    return jsonError(res, 404, ERROR_CODES.INVALID_REQUEST, 'Session not found');
  res.send(200, {});
}
