/** node:http's `clientError`: what its parser refused, answered as JSON-RPC where it can be. */
import type { Duplex } from 'node:stream';
import { ERROR_CODES } from '../../../protocol/error-codes.js';
import { errorResponse } from '../../../protocol/jsonrpc.js';

/** The limits a request may break before any handler sees it (the HTTP server enforces them). */
export interface RequestHeadLimits {
  /** The most bytes of request line and headers (node's maxHeaderSize). */
  maxHeaderBytes: number;
  /** The time the headers may take (node's headersTimeout; 0: none). */
  headerTimeoutMs: number;
  /** The time the whole request may take (node's requestTimeout; 0: none). */
  requestTimeoutMs: number;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

function statusAndMessage(code: string | undefined, limits: RequestHeadLimits): [number, string] {
  switch (code) {
    // The header limit is also the limit of a resource URI over HTTP: 2026-07-28 mirrors the
    // URI of resources/read in the Mcp-Name header, so a URI near maxHeaderBytes cannot be sent.
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        `Request Header Fields Too Large: the request line and headers exceed ${limits.maxHeaderBytes} ` +
          'bytes (maxHeaderBytes). resources/read carries its URI in the Mcp-Name header, so a URI ' +
          'longer than this limit cannot be read over HTTP: use stdio, or shorter URIs.',
      ];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        408,
        `Request Timeout: the headers must arrive within ${limits.headerTimeoutMs} ms ` +
          `(headerTimeoutMs) and the whole request within ${limits.requestTimeoutMs} ms`,
      ];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Payload Too Large: the chunk extensions of the body are too large'];
    default:
      return [400, `Bad Request: not a valid HTTP/1.1 request${code ? ` (${code})` : ''}`];
  }
}

/**
 * The raw HTTP/1.1 answer, JSON-RPC error body included, to a request the HTTP parser refused
 * (there is no response object then: it is written to the socket as it is). It closes the
 * connection: what follows on the socket cannot be framed.
 */
export function clientErrorResponse(code: string | undefined, limits: RequestHeadLimits): string {
  const [status, message] = statusAndMessage(code, limits);
  const body = JSON.stringify(errorResponse(null, ERROR_CODES.INVALID_REQUEST, message));
  return (
    `HTTP/1.1 ${status} ${REASONS[status]}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${new TextEncoder().encode(body).length}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

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
