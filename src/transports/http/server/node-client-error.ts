/** node:http's `clientError`: what its parser refused, answered as JSON-RPC where it can be. */
import type { Duplex } from 'node:stream';
import { clientErrorResponse, type RequestHeadLimits } from './client-error.js';

/** How long a refused connection stays open for its client to read the answer. */
const LINGER_MS = 1000;

/**
 * Answers what node's HTTP parser refused (headers too large or too slow, malformed requests)
 * with a JSON-RPC error body rather than a bare status line, where the socket can take one.
 */
export function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  limits: RequestHeadLimits,
): void {
  // The parser reports again what arrives after the answer: nothing more to do then.
  if (socket.writableEnded || socket.destroyed) return;
  // Node's own rule: write only when no response of this connection has started.
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(error.code, limits));
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}
